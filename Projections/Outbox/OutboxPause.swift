import EventModel

/// An account's sending paused for its server: its most recent attempt's outcome was that the server did not serve the
/// message (`SendFailed.serverFailure`, or queued again by the system for want of a connection). Until `until` (that
/// message's retry time) no round tries the account's other due messages: each would meet the same server, one
/// attempt's wait a round. A message sent, or a failure the server answered, ends it.
public struct OutboxPause: BinaryField, Equatable, Sendable {
    /// The message the server did not serve (tried first once the pause is over).
    public var draftID: String
    /// When the pause is over: that message's retry time.
    public var until: Timestamp
    /// Why (the failure's recorded reason).
    public var reason: String
    /// When the failure was recorded.
    public var at: Timestamp

    /// A pause for `draftID`'s failure.
    public init(draftID: String, until: Timestamp, reason: String, at: Timestamp) {
        self.draftID = draftID
        self.until = until
        self.reason = reason
        self.at = at
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(draftID); w.write(until); w.write(reason); w.write(at)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        draftID = try r.read(); until = try r.read(); reason = try r.read(); at = try r.read()
    }
}
