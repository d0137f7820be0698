/// Which notification preference a `NotificationPreferenceChanged` event changes.
public enum NotificationPreference: UInt8, Sendable, CaseIterable, BinaryField, CustomStringConvertible {
    /// Notifications on for the event's account.
    case accountEnabled = 1
    /// Notifications off for the event's account.
    case accountDisabled = 2
    /// A category's notifications on (`value`: the category name).
    case categoryOn = 3
    /// A category's notifications off (`value`: the category name).
    case categoryOff = 4
    /// Quiet hours on, from `quietStart` to `quietEnd` (minutes after local midnight).
    case quietHoursSet = 5
    /// Quiet hours off.
    case quietHoursCleared = 6
    /// A VIP sender added (`value`: the address, lowercased).
    case vipAdded = 7
    /// A VIP sender removed (`value`: the address, lowercased).
    case vipRemoved = 8
    /// A thread muted (`value`: the thread id).
    case threadMuted = 9
    /// A thread unmuted (`value`: the thread id).
    case threadUnmuted = 10
    /// Every preference back to its default (all accounts and categories on, no VIPs, no muted threads,
    /// quiet hours off).
    case reset = 11

    /// The name shown in `log` and JSON, e.g. `vip-added`.
    public var description: String {
        switch self {
        case .accountEnabled: "account-enabled"
        case .accountDisabled: "account-disabled"
        case .categoryOn: "category-on"
        case .categoryOff: "category-off"
        case .quietHoursSet: "quiet-hours-set"
        case .quietHoursCleared: "quiet-hours-cleared"
        case .vipAdded: "vip-added"
        case .vipRemoved: "vip-removed"
        case .threadMuted: "thread-muted"
        case .threadUnmuted: "thread-unmuted"
        case .reset: "reset"
        }
    }

    @usableFromInline package func write(to w: inout ByteWriter) { w.writeByte(rawValue) }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        let b = try r.readByte()
        guard let v = NotificationPreference(rawValue: b) else { throw DecodeError.malformed("notification preference \(b)", at: r.offset) }
        self = v
    }
}

extension NotificationPreference: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
