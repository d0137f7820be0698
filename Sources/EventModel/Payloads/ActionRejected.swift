/// The server refused an action; compensating events follow.
public struct ActionRejected: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The action.
    public var actionID: EventID
    /// The emails refused.
    public var emailIDs: [String]
    /// The server's answer.
    public var reason: String

    /// Creates the payload.
    public init(actionID: EventID, emailIDs: [String] = [], reason: String) {
        self.actionID = actionID
        self.emailIDs = emailIDs
        self.reason = reason
    }

    package func encode(to w: inout ByteWriter) {
        w.write(actionID)
        w.write(emailIDs)
        w.write(reason)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        actionID = try r.read()
        emailIDs = try r.read()
        reason = try r.read()
    }
}
