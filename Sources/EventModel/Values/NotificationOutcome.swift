/// What the notification decision made of a new email.
public enum NotificationOutcome: UInt8, Sendable, CaseIterable, BinaryField, CustomStringConvertible {
    /// A banner was posted (or is to be posted) for the email.
    case posted = 1
    /// No banner, but the email counts in the badge (the anti-flood cap).
    case badgeOnly = 2
    /// No banner: a filter or anti-flood rule suppressed it (the reason says which).
    case suppressed = 3

    /// The name used in the CLI and JSON: `posted`, `badge-only`, `suppressed`.
    public var description: String {
        switch self {
        case .posted: "posted"
        case .badgeOnly: "badge-only"
        case .suppressed: "suppressed"
        }
    }

    @usableFromInline package func write(to w: inout ByteWriter) { w.writeByte(rawValue) }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        let b = try r.readByte()
        guard let v = NotificationOutcome(rawValue: b) else { throw DecodeError.malformed("notification outcome \(b)", at: r.offset) }
        self = v
    }
}

extension NotificationOutcome: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
