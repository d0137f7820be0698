/// The server accepted an action (or its part for these emails).
public struct ActionApplied: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The action.
    public var actionID: EventID
    /// The emails it was applied to.
    public var emailIDs: [String]

    /// Creates the payload.
    public init(actionID: EventID, emailIDs: [String] = []) {
        self.actionID = actionID
        self.emailIDs = emailIDs
    }

    package func encode(to w: inout ByteWriter) {
        w.write(actionID)
        w.write(emailIDs)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        actionID = try r.read()
        emailIDs = try r.read()
    }
}
