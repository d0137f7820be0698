/// The type of an event: a stable 16-bit code on disk and a name for people.
///
/// Codes are never reused or renumbered; `docs/events.md` lists them all. A code this build does not
/// know still reads (as `DomainEvent.unknown`), so tools can show and verify it.
public struct EventType: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The on-disk code.
    public var rawValue: UInt16

    /// Creates a type from its on-disk code.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static func < (a: EventType, b: EventType) -> Bool { a.rawValue < b.rawValue }

    // Store
    public static let storeInitialized = EventType(rawValue: 1)
    // Accounts
    public static let accountAdded = EventType(rawValue: 10)
    public static let accountRemoved = EventType(rawValue: 11)
    public static let accountSettingsDiscovered = EventType(rawValue: 12)
    // Folders and sync state
    public static let folderDiscovered = EventType(rawValue: 20)
    public static let folderRemoved = EventType(rawValue: 21)
    public static let uidValidityChanged = EventType(rawValue: 22)
    public static let folderSyncCheckpointed = EventType(rawValue: 23)
    // Facts about email
    public static let emailReceived = EventType(rawValue: 30)
    public static let flagsChanged = EventType(rawValue: 31)
    public static let emailExpunged = EventType(rawValue: 32)
    public static let emailCategorized = EventType(rawValue: 33)
    public static let senderCategoryLearned = EventType(rawValue: 34)
    // User actions on threads
    public static let threadArchived = EventType(rawValue: 40)
    public static let threadDeleted = EventType(rawValue: 41)
    public static let threadMarkedRead = EventType(rawValue: 42)
    public static let threadMarkedUnread = EventType(rawValue: 43)
    public static let threadStarred = EventType(rawValue: 44)
    public static let threadUnstarred = EventType(rawValue: 45)
    public static let threadMoved = EventType(rawValue: 46)
    // Outcomes and compensations
    public static let actionApplied = EventType(rawValue: 50)
    public static let actionFailed = EventType(rawValue: 51)
    public static let actionRejected = EventType(rawValue: 52)
    public static let flagRejected = EventType(rawValue: 53)
    public static let actionReverted = EventType(rawValue: 54)
    public static let actionUndone = EventType(rawValue: 55)
    // Composer and outbox
    public static let draftSaved = EventType(rawValue: 60)
    public static let draftDeleted = EventType(rawValue: 61)
    public static let messageQueued = EventType(rawValue: 62)
    public static let sendStarted = EventType(rawValue: 63)
    public static let messageSent = EventType(rawValue: 64)
    public static let sendFailed = EventType(rawValue: 65)
    public static let sendUndone = EventType(rawValue: 66)
    public static let sendCancelled = EventType(rawValue: 67)
    public static let draftCopyChanged = EventType(rawValue: 68)
    public static let messagePartlySent = EventType(rawValue: 69)
    // Notifications
    public static let notificationDelivered = EventType(rawValue: 70)
    public static let notificationPreferenceChanged = EventType(rawValue: 71)
    public static let notificationDecided = EventType(rawValue: 72)
    public static let notificationWithdrawn = EventType(rawValue: 73)

    /// Every type this build knows, with its name, in code order.
    public static let catalog: [(EventType, String)] = [
        (.storeInitialized, "StoreInitialized"),
        (.accountAdded, "AccountAdded"), (.accountRemoved, "AccountRemoved"),
        (.accountSettingsDiscovered, "AccountSettingsDiscovered"),
        (.folderDiscovered, "FolderDiscovered"), (.folderRemoved, "FolderRemoved"),
        (.uidValidityChanged, "UIDValidityChanged"), (.folderSyncCheckpointed, "FolderSyncCheckpointed"),
        (.emailReceived, "EmailReceived"), (.flagsChanged, "FlagsChanged"),
        (.emailExpunged, "EmailExpunged"), (.emailCategorized, "EmailCategorized"),
        (.senderCategoryLearned, "SenderCategoryLearned"),
        (.threadArchived, "ThreadArchived"), (.threadDeleted, "ThreadDeleted"),
        (.threadMarkedRead, "ThreadMarkedRead"), (.threadMarkedUnread, "ThreadMarkedUnread"),
        (.threadStarred, "ThreadStarred"), (.threadUnstarred, "ThreadUnstarred"), (.threadMoved, "ThreadMoved"),
        (.actionApplied, "ActionApplied"), (.actionFailed, "ActionFailed"), (.actionRejected, "ActionRejected"),
        (.flagRejected, "FlagRejected"), (.actionReverted, "ActionReverted"), (.actionUndone, "ActionUndone"),
        (.draftSaved, "DraftSaved"), (.draftDeleted, "DraftDeleted"), (.messageQueued, "MessageQueued"),
        (.sendStarted, "SendStarted"), (.messageSent, "MessageSent"), (.sendFailed, "SendFailed"),
        (.sendUndone, "SendUndone"), (.sendCancelled, "SendCancelled"), (.draftCopyChanged, "DraftCopyChanged"),
        (.messagePartlySent, "MessagePartlySent"),
        (.notificationDelivered, "NotificationDelivered"),
        (.notificationPreferenceChanged, "NotificationPreferenceChanged"), (.notificationDecided, "NotificationDecided"),
        (.notificationWithdrawn, "NotificationWithdrawn"),
    ]

    private static let names: [UInt16: String] = Dictionary(uniqueKeysWithValues: catalog.map { ($0.0.rawValue, $0.1) })
    private static let byName: [String: EventType] = Dictionary(uniqueKeysWithValues: catalog.map { ($0.1.lowercased(), $0.0) })

    /// The type's name, e.g. `EmailReceived`; `Unknown(N)` for a code this build does not know.
    public var name: String { EventType.names[rawValue] ?? "Unknown(\(rawValue))" }

    /// True when this build knows the type.
    public var isKnown: Bool { EventType.names[rawValue] != nil }

    /// Looks a type up by name, case-insensitively.
    public init?(name: String) {
        guard let t = EventType.byName[name.lowercased()] else { return nil }
        self = t
    }

    public var description: String { name }
}
