import EventModel

/// Delivered notifications of a thread that should be withdrawn (the thread was read, archived, deleted
/// or muted) and have not been yet.
public struct PendingWithdrawal: BinaryField, Equatable, Sendable {
    /// The emails whose notifications are showing.
    public var emailIDs: [String]
    /// `read`, `archived`, `deleted` or `muted`.
    public var reason: String

    /// Creates a pending withdrawal.
    public init(emailIDs: [String], reason: String) {
        self.emailIDs = emailIDs
        self.reason = reason
    }

    @usableFromInline package func write(to w: inout ByteWriter) { w.write(emailIDs); w.write(reason) }
    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) { emailIDs = try r.read(); reason = try r.read() }
}
