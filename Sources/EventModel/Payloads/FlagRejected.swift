/// Compensation: a flag the server refused is reverted in the views.
public struct FlagRejected: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The action it compensates.
    public var actionID: EventID
    /// The emails reverted.
    public var emailIDs: [String]
    /// The refused flag.
    public var flag: String
    /// True when the action had set the flag (so it is cleared again).
    public var wasSet: Bool
    /// What to tell the user, e.g. \"This provider does not support starred emails\".
    public var message: String

    /// Creates the payload.
    public init(actionID: EventID, emailIDs: [String], flag: String, wasSet: Bool, message: String) {
        self.actionID = actionID
        self.emailIDs = emailIDs
        self.flag = flag
        self.wasSet = wasSet
        self.message = message
    }

    package func encode(to w: inout ByteWriter) {
        w.write(actionID)
        w.write(emailIDs)
        w.write(flag)
        w.write(wasSet)
        w.write(message)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        actionID = try r.read()
        emailIDs = try r.read()
        flag = try r.read()
        wasSet = try r.read()
        message = try r.read()
    }
}
