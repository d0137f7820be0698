/// A typed event: one case per event type of the catalog (`docs/events.md`).
///
/// Its payloads are held in the enum (69 bytes), so decoding one allocates nothing for the event itself and a
/// `switch` reads a payload where it is. `EmailReceived`, the largest and most common, holds its 24 fields in one
/// object of its own, so a copy of it (binding it in a `switch`, handing an event on) retains one reference; the
/// few payloads over 72 bytes (`AccountAdded`, `AccountSettingsDiscovered`, `DraftSaved`, `DraftCopyChanged`,
/// `NotificationDecided`, all rare, and `FolderSyncCheckpointed`, 80 bytes since its schema 3's two arrays, one
/// event a sync's folder pass) are `indirect` cases, each in a box, so they do not make every event as large as they
/// are. (Until 2026-12-04 the whole enum was `indirect`: each event decoded into a box and binding
/// a payload copied it out, retaining every string and array of an `EmailReceived`; the log bench's typed scan now
/// runs ~7% fewer instructions for that, callgrind.)
public enum DomainEvent: Sendable, Equatable {
    /// `StoreInitialized`.
    case storeInitialized(StoreInitialized)
    /// `AccountAdded`.
    indirect case accountAdded(AccountAdded)
    /// `AccountRemoved`.
    case accountRemoved(AccountRemoved)
    /// `AccountSettingsDiscovered`.
    indirect case accountSettingsDiscovered(AccountSettingsDiscovered)
    /// `FolderDiscovered`.
    case folderDiscovered(FolderDiscovered)
    /// `FolderRemoved`.
    case folderRemoved(FolderRemoved)
    /// `UidValidityChanged`.
    case uidValidityChanged(UIDValidityChanged)
    /// `FolderSyncCheckpointed`.
    indirect case folderSyncCheckpointed(FolderSyncCheckpointed)
    /// `EmailReceived`.
    case emailReceived(EmailReceived)
    /// `FlagsChanged`.
    case flagsChanged(FlagsChanged)
    /// `EmailExpunged`.
    case emailExpunged(EmailExpunged)
    /// `EmailCategorized`.
    case emailCategorized(EmailCategorized)
    /// `SenderCategoryLearned`.
    case senderCategoryLearned(SenderCategoryLearned)
    /// `ThreadArchived`.
    case threadArchived(ThreadAction)
    /// `ThreadDeleted`.
    case threadDeleted(ThreadAction)
    /// `ThreadMarkedRead`.
    case threadMarkedRead(ThreadAction)
    /// `ThreadMarkedUnread`.
    case threadMarkedUnread(ThreadAction)
    /// `ThreadStarred`.
    case threadStarred(ThreadAction)
    /// `ThreadUnstarred`.
    case threadUnstarred(ThreadAction)
    /// `ThreadMoved`.
    case threadMoved(ThreadAction)
    /// `ActionApplied`.
    case actionApplied(ActionApplied)
    /// `ActionFailed`.
    case actionFailed(ActionFailed)
    /// `ActionRejected`.
    case actionRejected(ActionRejected)
    /// `FlagRejected`.
    case flagRejected(FlagRejected)
    /// `ActionReverted`.
    case actionReverted(ActionReverted)
    /// `ActionUndone`.
    case actionUndone(ActionUndone)
    /// `DraftSaved`.
    indirect case draftSaved(DraftSaved)
    /// `DraftDeleted`.
    case draftDeleted(DraftDeleted)
    /// `MessageQueued`.
    case messageQueued(MessageQueued)
    /// `SendStarted`.
    case sendStarted(SendStarted)
    /// `MessageSent`.
    case messageSent(MessageSent)
    /// `SendFailed`.
    case sendFailed(SendFailed)
    /// `SendUndone`.
    case sendUndone(SendUndone)
    /// `SendCancelled`.
    case sendCancelled(SendCancelled)
    /// `DraftCopyChanged`.
    indirect case draftCopyChanged(DraftCopyChanged)
    /// `MessagePartlySent`.
    case messagePartlySent(MessagePartlySent)
    /// `NotificationDelivered`.
    case notificationDelivered(NotificationDelivered)
    /// `NotificationPreferenceChanged`.
    case notificationPreferenceChanged(NotificationPreferenceChanged)
    /// `NotificationDecided`.
    indirect case notificationDecided(NotificationDecided)
    /// `NotificationWithdrawn`.
    case notificationWithdrawn(NotificationWithdrawn)
    /// A type this build does not know, kept as bytes.
    case unknown(type: EventType, version: UInt16, payload: [UInt8])

    /// The event's type.
    public var type: EventType {
        switch self {
        case .storeInitialized: .storeInitialized
        case .accountAdded: .accountAdded
        case .accountRemoved: .accountRemoved
        case .accountSettingsDiscovered: .accountSettingsDiscovered
        case .folderDiscovered: .folderDiscovered
        case .folderRemoved: .folderRemoved
        case .uidValidityChanged: .uidValidityChanged
        case .folderSyncCheckpointed: .folderSyncCheckpointed
        case .emailReceived: .emailReceived
        case .flagsChanged: .flagsChanged
        case .emailExpunged: .emailExpunged
        case .emailCategorized: .emailCategorized
        case .senderCategoryLearned: .senderCategoryLearned
        case .threadArchived: .threadArchived
        case .threadDeleted: .threadDeleted
        case .threadMarkedRead: .threadMarkedRead
        case .threadMarkedUnread: .threadMarkedUnread
        case .threadStarred: .threadStarred
        case .threadUnstarred: .threadUnstarred
        case .threadMoved: .threadMoved
        case .actionApplied: .actionApplied
        case .actionFailed: .actionFailed
        case .actionRejected: .actionRejected
        case .flagRejected: .flagRejected
        case .actionReverted: .actionReverted
        case .actionUndone: .actionUndone
        case .draftSaved: .draftSaved
        case .draftDeleted: .draftDeleted
        case .messageQueued: .messageQueued
        case .sendStarted: .sendStarted
        case .messageSent: .messageSent
        case .sendFailed: .sendFailed
        case .sendUndone: .sendUndone
        case .sendCancelled: .sendCancelled
        case .draftCopyChanged: .draftCopyChanged
        case .messagePartlySent: .messagePartlySent
        case .notificationDelivered: .notificationDelivered
        case .notificationPreferenceChanged: .notificationPreferenceChanged
        case .notificationDecided: .notificationDecided
        case .notificationWithdrawn: .notificationWithdrawn
        case .unknown(let t, _, _): t
        }
    }

    /// The schema version the payload is written with.
    public var schemaVersion: UInt16 {
        switch self {
        case .storeInitialized: StoreInitialized.schemaVersion
        case .accountAdded: AccountAdded.schemaVersion
        case .accountRemoved: AccountRemoved.schemaVersion
        case .accountSettingsDiscovered: AccountSettingsDiscovered.schemaVersion
        case .folderDiscovered: FolderDiscovered.schemaVersion
        case .folderRemoved: FolderRemoved.schemaVersion
        case .uidValidityChanged: UIDValidityChanged.schemaVersion
        case .folderSyncCheckpointed: FolderSyncCheckpointed.schemaVersion
        case .emailReceived: EmailReceived.schemaVersion
        case .flagsChanged: FlagsChanged.schemaVersion
        case .emailExpunged: EmailExpunged.schemaVersion
        case .emailCategorized: EmailCategorized.schemaVersion
        case .senderCategoryLearned: SenderCategoryLearned.schemaVersion
        case .threadArchived: ThreadAction.schemaVersion
        case .threadDeleted: ThreadAction.schemaVersion
        case .threadMarkedRead: ThreadAction.schemaVersion
        case .threadMarkedUnread: ThreadAction.schemaVersion
        case .threadStarred: ThreadAction.schemaVersion
        case .threadUnstarred: ThreadAction.schemaVersion
        case .threadMoved: ThreadAction.schemaVersion
        case .actionApplied: ActionApplied.schemaVersion
        case .actionFailed: ActionFailed.schemaVersion
        case .actionRejected: ActionRejected.schemaVersion
        case .flagRejected: FlagRejected.schemaVersion
        case .actionReverted: ActionReverted.schemaVersion
        case .actionUndone: ActionUndone.schemaVersion
        case .draftSaved: DraftSaved.schemaVersion
        case .draftDeleted: DraftDeleted.schemaVersion
        case .messageQueued: MessageQueued.schemaVersion
        case .sendStarted: SendStarted.schemaVersion
        case .messageSent: MessageSent.schemaVersion
        case .sendFailed: SendFailed.schemaVersion
        case .sendUndone: SendUndone.schemaVersion
        case .sendCancelled: SendCancelled.schemaVersion
        case .draftCopyChanged: DraftCopyChanged.schemaVersion
        case .messagePartlySent: MessagePartlySent.schemaVersion
        case .notificationDelivered: NotificationDelivered.schemaVersion
        case .notificationPreferenceChanged: NotificationPreferenceChanged.schemaVersion
        case .notificationDecided: NotificationDecided.schemaVersion
        case .notificationWithdrawn: NotificationWithdrawn.schemaVersion
        case .unknown(_, let v, _): v
        }
    }

    /// Writes the payload bytes (without the envelope).
    package func encodePayload(to w: inout ByteWriter) {
        withUnsafePointer(to: self) { _ = DomainEvent.encodePayload(at: $0, to: &w) }
    }

    /// Writes the payload bytes of the event at `event`, read where it is: a `switch` over a borrowed event
    /// copied its payload first (retaining every string and array in it), a third of a batch's encoding in
    /// the log bench's profile. Returns the event's type and schema version, which reading them apart would
    /// copy the event for (`type` and `schemaVersion` on `event.pointee`: a tenth of the encoding).
    package static func encodePayload(at event: UnsafePointer<DomainEvent>, to w: inout ByteWriter)
        -> (type: EventType, schemaVersion: UInt16) {
        switch event.pointee {
        case .storeInitialized(let p): p.encode(to: &w); return (.storeInitialized, Swift.type(of: p).schemaVersion)
        case .accountAdded(let p): p.encode(to: &w); return (.accountAdded, Swift.type(of: p).schemaVersion)
        case .accountRemoved(let p): p.encode(to: &w); return (.accountRemoved, Swift.type(of: p).schemaVersion)
        case .accountSettingsDiscovered(let p): p.encode(to: &w); return (.accountSettingsDiscovered, Swift.type(of: p).schemaVersion)
        case .folderDiscovered(let p): p.encode(to: &w); return (.folderDiscovered, Swift.type(of: p).schemaVersion)
        case .folderRemoved(let p): p.encode(to: &w); return (.folderRemoved, Swift.type(of: p).schemaVersion)
        case .uidValidityChanged(let p): p.encode(to: &w); return (.uidValidityChanged, Swift.type(of: p).schemaVersion)
        case .folderSyncCheckpointed(let p): p.encode(to: &w); return (.folderSyncCheckpointed, Swift.type(of: p).schemaVersion)
        case .emailReceived(let p): p.encode(to: &w); return (.emailReceived, Swift.type(of: p).schemaVersion)
        case .flagsChanged(let p): p.encode(to: &w); return (.flagsChanged, Swift.type(of: p).schemaVersion)
        case .emailExpunged(let p): p.encode(to: &w); return (.emailExpunged, Swift.type(of: p).schemaVersion)
        case .emailCategorized(let p): p.encode(to: &w); return (.emailCategorized, Swift.type(of: p).schemaVersion)
        case .senderCategoryLearned(let p): p.encode(to: &w); return (.senderCategoryLearned, Swift.type(of: p).schemaVersion)
        case .threadArchived(let p): p.encode(to: &w); return (.threadArchived, Swift.type(of: p).schemaVersion)
        case .threadDeleted(let p): p.encode(to: &w); return (.threadDeleted, Swift.type(of: p).schemaVersion)
        case .threadMarkedRead(let p): p.encode(to: &w); return (.threadMarkedRead, Swift.type(of: p).schemaVersion)
        case .threadMarkedUnread(let p): p.encode(to: &w); return (.threadMarkedUnread, Swift.type(of: p).schemaVersion)
        case .threadStarred(let p): p.encode(to: &w); return (.threadStarred, Swift.type(of: p).schemaVersion)
        case .threadUnstarred(let p): p.encode(to: &w); return (.threadUnstarred, Swift.type(of: p).schemaVersion)
        case .threadMoved(let p): p.encode(to: &w); return (.threadMoved, Swift.type(of: p).schemaVersion)
        case .actionApplied(let p): p.encode(to: &w); return (.actionApplied, Swift.type(of: p).schemaVersion)
        case .actionFailed(let p): p.encode(to: &w); return (.actionFailed, Swift.type(of: p).schemaVersion)
        case .actionRejected(let p): p.encode(to: &w); return (.actionRejected, Swift.type(of: p).schemaVersion)
        case .flagRejected(let p): p.encode(to: &w); return (.flagRejected, Swift.type(of: p).schemaVersion)
        case .actionReverted(let p): p.encode(to: &w); return (.actionReverted, Swift.type(of: p).schemaVersion)
        case .actionUndone(let p): p.encode(to: &w); return (.actionUndone, Swift.type(of: p).schemaVersion)
        case .draftSaved(let p): p.encode(to: &w); return (.draftSaved, Swift.type(of: p).schemaVersion)
        case .draftDeleted(let p): p.encode(to: &w); return (.draftDeleted, Swift.type(of: p).schemaVersion)
        case .messageQueued(let p): p.encode(to: &w); return (.messageQueued, Swift.type(of: p).schemaVersion)
        case .sendStarted(let p): p.encode(to: &w); return (.sendStarted, Swift.type(of: p).schemaVersion)
        case .messageSent(let p): p.encode(to: &w); return (.messageSent, Swift.type(of: p).schemaVersion)
        case .sendFailed(let p): p.encode(to: &w); return (.sendFailed, Swift.type(of: p).schemaVersion)
        case .sendUndone(let p): p.encode(to: &w); return (.sendUndone, Swift.type(of: p).schemaVersion)
        case .sendCancelled(let p): p.encode(to: &w); return (.sendCancelled, Swift.type(of: p).schemaVersion)
        case .draftCopyChanged(let p): p.encode(to: &w); return (.draftCopyChanged, Swift.type(of: p).schemaVersion)
        case .messagePartlySent(let p): p.encode(to: &w); return (.messagePartlySent, Swift.type(of: p).schemaVersion)
        case .notificationDelivered(let p): p.encode(to: &w); return (.notificationDelivered, Swift.type(of: p).schemaVersion)
        case .notificationPreferenceChanged(let p): p.encode(to: &w); return (.notificationPreferenceChanged, Swift.type(of: p).schemaVersion)
        case .notificationDecided(let p): p.encode(to: &w); return (.notificationDecided, Swift.type(of: p).schemaVersion)
        case .notificationWithdrawn(let p): p.encode(to: &w); return (.notificationWithdrawn, Swift.type(of: p).schemaVersion)
        case .unknown(let t, let v, let bytes): w.writeRaw(bytes); return (t, v)
        }
    }

    /// Decodes a payload of `type` written at `version`, upcasting older versions.
    package static func decode(type: EventType, version: UInt16, payload: [UInt8]) throws(DecodeError) -> DomainEvent {
        do {
            return try payload.withUnsafeBytes { (raw) throws(DecodeError) -> DomainEvent in
                try decode(type: type, version: version, bytes: raw)
            }
        } catch let e as DecodeError {
            throw e
        } catch {
            throw DecodeError.malformed("\(error)", at: 0)
        }
    }

    /// Decodes a payload of `type` written at `version` from bytes read in place (a record in the log's map,
    /// valid only during the call): as `decode(type:version:payload:)`, without a copy of the payload first.
    /// An unknown type keeps a copy of its bytes.
    package static func decode(type: EventType, version: UInt16, bytes: UnsafeRawBufferPointer) throws(DecodeError) -> DomainEvent {
        var r = ByteReader(bytes)
        let event = try decode(type: type, version: version, reader: &r, payload: bytes)
        guard r.isAtEnd else { throw DecodeError.malformed("\(r.remaining) trailing payload bytes", at: r.offset) }
        return event
    }

    static func decode(type: EventType, version: UInt16, reader r: inout ByteReader, payload: UnsafeRawBufferPointer) throws(DecodeError) -> DomainEvent {
        func p<P: PayloadCodable>(_: P.Type, _ r: inout ByteReader) throws(DecodeError) -> P {
            guard version >= 1, version <= P.schemaVersion else {
                throw DecodeError.unsupportedVersion(type: type.name, version: version, newest: P.schemaVersion)
            }
            return try P(from: &r, version: version)
        }
        switch type {
        case .storeInitialized: return .storeInitialized(try p(StoreInitialized.self, &r))
        case .accountAdded: return .accountAdded(try p(AccountAdded.self, &r))
        case .accountRemoved: return .accountRemoved(try p(AccountRemoved.self, &r))
        case .accountSettingsDiscovered: return .accountSettingsDiscovered(try p(AccountSettingsDiscovered.self, &r))
        case .folderDiscovered: return .folderDiscovered(try p(FolderDiscovered.self, &r))
        case .folderRemoved: return .folderRemoved(try p(FolderRemoved.self, &r))
        case .uidValidityChanged: return .uidValidityChanged(try p(UIDValidityChanged.self, &r))
        case .folderSyncCheckpointed: return .folderSyncCheckpointed(try p(FolderSyncCheckpointed.self, &r))
        case .emailReceived: return .emailReceived(try p(EmailReceived.self, &r))
        case .flagsChanged: return .flagsChanged(try p(FlagsChanged.self, &r))
        case .emailExpunged: return .emailExpunged(try p(EmailExpunged.self, &r))
        case .emailCategorized: return .emailCategorized(try p(EmailCategorized.self, &r))
        case .senderCategoryLearned: return .senderCategoryLearned(try p(SenderCategoryLearned.self, &r))
        case .threadArchived: return .threadArchived(try p(ThreadAction.self, &r))
        case .threadDeleted: return .threadDeleted(try p(ThreadAction.self, &r))
        case .threadMarkedRead: return .threadMarkedRead(try p(ThreadAction.self, &r))
        case .threadMarkedUnread: return .threadMarkedUnread(try p(ThreadAction.self, &r))
        case .threadStarred: return .threadStarred(try p(ThreadAction.self, &r))
        case .threadUnstarred: return .threadUnstarred(try p(ThreadAction.self, &r))
        case .threadMoved: return .threadMoved(try p(ThreadAction.self, &r))
        case .actionApplied: return .actionApplied(try p(ActionApplied.self, &r))
        case .actionFailed: return .actionFailed(try p(ActionFailed.self, &r))
        case .actionRejected: return .actionRejected(try p(ActionRejected.self, &r))
        case .flagRejected: return .flagRejected(try p(FlagRejected.self, &r))
        case .actionReverted: return .actionReverted(try p(ActionReverted.self, &r))
        case .actionUndone: return .actionUndone(try p(ActionUndone.self, &r))
        case .draftSaved: return .draftSaved(try p(DraftSaved.self, &r))
        case .draftDeleted: return .draftDeleted(try p(DraftDeleted.self, &r))
        case .messageQueued: return .messageQueued(try p(MessageQueued.self, &r))
        case .sendStarted: return .sendStarted(try p(SendStarted.self, &r))
        case .messageSent: return .messageSent(try p(MessageSent.self, &r))
        case .sendFailed: return .sendFailed(try p(SendFailed.self, &r))
        case .sendUndone: return .sendUndone(try p(SendUndone.self, &r))
        case .sendCancelled: return .sendCancelled(try p(SendCancelled.self, &r))
        case .draftCopyChanged: return .draftCopyChanged(try p(DraftCopyChanged.self, &r))
        case .messagePartlySent: return .messagePartlySent(try p(MessagePartlySent.self, &r))
        case .notificationDelivered: return .notificationDelivered(try p(NotificationDelivered.self, &r))
        case .notificationPreferenceChanged: return .notificationPreferenceChanged(try p(NotificationPreferenceChanged.self, &r))
        case .notificationDecided: return .notificationDecided(try p(NotificationDecided.self, &r))
        case .notificationWithdrawn: return .notificationWithdrawn(try p(NotificationWithdrawn.self, &r))
        default:
            r = ByteReader(UnsafeRawBufferPointer(start: nil, count: 0))
            return .unknown(type: type, version: version, payload: Array(payload))
        }
    }
}
