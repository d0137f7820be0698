import EventModel

/// A draft's send state, as the outbox view keeps it.
public struct OutboxItem: BinaryField, Equatable, Sendable {
    /// The composer's states (the outbox lists queued, sending and failed).
    public enum State: UInt8, Sendable, CaseIterable, BinaryField, CustomStringConvertible {
        case draft = 0, queued, sending, sent, failed
        public var description: String {
            switch self {
            case .draft: "draft"
            case .queued: "queued"
            case .sending: "sending"
            case .sent: "sent"
            case .failed: "failed"
            }
        }
        @usableFromInline package func write(to w: inout ByteWriter) { w.writeByte(rawValue) }
        @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) { self = State(rawValue: try r.readByte()) ?? .draft }
        /// True for the states the outbox lists.
        public var inOutbox: Bool { self == .queued || self == .sending || self == .failed }
    }

    public var draftID: String
    public var account: String
    public var subject: String
    public var to: [EmailAddress]
    public var state: State
    public var dueAt: Timestamp?
    public var reason: String?
    public var attempts: Int
    public var updatedAt: Timestamp
    /// When a failed message is tried next (its last `SendFailed`'s retry time); nil when it is not failed, or
    /// failed for good (a permanent refusal: only `outbox retry` sends it again).
    public var retryAt: Timestamp?

    public init(draftID: String, account: String) {
        self.draftID = draftID
        self.account = account
        subject = ""
        to = []
        state = .draft
        dueAt = nil
        reason = nil
        attempts = 0
        updatedAt = Timestamp(microseconds: 0)
        retryAt = nil
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(draftID); w.write(account); w.write(subject); w.write(to); w.write(state); w.write(dueAt); w.write(reason)
        w.write(attempts); w.write(updatedAt); w.write(retryAt)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        draftID = try r.read(); account = try r.read(); subject = try r.read(); to = try r.read(); state = try r.read()
        dueAt = try r.read(); reason = try r.read(); attempts = try r.read(); updatedAt = try r.read(); retryAt = try r.read()
    }
}
