/// Submission failed.
public struct SendFailed: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The draft.
    public var draftID: String
    /// The server's reason or the local error.
    public var reason: String
    /// True for 5xx (not retried).
    public var permanent: Bool
    /// When a temporary failure is retried.
    public var retryAt: Timestamp?

    /// Creates the payload.
    public init(draftID: String, reason: String, permanent: Bool, retryAt: Timestamp? = nil) {
        self.draftID = draftID
        self.reason = reason
        self.permanent = permanent
        self.retryAt = retryAt
    }

    package func encode(to w: inout ByteWriter) {
        w.write(draftID)
        w.write(reason)
        w.write(permanent)
        w.write(retryAt)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        draftID = try r.read()
        reason = try r.read()
        permanent = try r.read()
        retryAt = try r.read()
    }
}
