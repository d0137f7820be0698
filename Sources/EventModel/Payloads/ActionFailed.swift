/// A temporary failure: the action stays pending and is retried.
public struct ActionFailed: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The action.
    public var actionID: EventID
    /// The emails still pending.
    public var emailIDs: [String]
    /// What went wrong.
    public var reason: String
    /// Which attempt this was (1-based).
    public var attempt: UInt32
    /// When it is retried next.
    public var retryAt: Timestamp?

    /// Creates the payload.
    public init(actionID: EventID, emailIDs: [String] = [], reason: String, attempt: UInt32, retryAt: Timestamp? = nil) {
        self.actionID = actionID
        self.emailIDs = emailIDs
        self.reason = reason
        self.attempt = attempt
        self.retryAt = retryAt
    }

    package func encode(to w: inout ByteWriter) {
        w.write(actionID)
        w.write(emailIDs)
        w.write(reason)
        w.write(attempt)
        w.write(retryAt)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        actionID = try r.read()
        emailIDs = try r.read()
        reason = try r.read()
        attempt = try r.read()
        retryAt = try r.read()
    }
}
