/// Submission failed.
public struct SendFailed: PayloadCodable {
    /// The schema version this build writes. 2: `serverFailure`.
    public static let schemaVersion: UInt16 = 2

    /// The draft.
    public var draftID: String
    /// The server's reason or the local error.
    public var reason: String
    /// True for 5xx (not retried).
    public var permanent: Bool
    /// When a temporary failure is retried.
    public var retryAt: Timestamp?
    /// True when the server did not serve the message at all (no answer in time, a connection that stalled, was lost
    /// or ran past the attempt's deadline, no reply to the message, a 4xx such as 421 to the greeting or EHLO): the
    /// account's other messages would meet the same, so they wait for `retryAt` too. False for a refusal of this message
    /// and in events of schema 1.
    public var serverFailure: Bool

    /// Creates the payload.
    public init(draftID: String, reason: String, permanent: Bool, retryAt: Timestamp? = nil, serverFailure: Bool = false) {
        self.draftID = draftID
        self.reason = reason
        self.permanent = permanent
        self.retryAt = retryAt
        self.serverFailure = serverFailure
    }

    package func encode(to w: inout ByteWriter) {
        w.write(draftID)
        w.write(reason)
        w.write(permanent)
        w.write(retryAt)
        w.write(serverFailure)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        draftID = try r.read()
        reason = try r.read()
        permanent = try r.read()
        retryAt = try r.read()
        serverFailure = version >= 2 ? try r.read() : false
    }
}
