/// The user undid an action (causation = the action).
public struct ActionUndone: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The action undone.
    public var actionID: EventID
    /// True when the action had reached the server and its inverse is queued.
    public var serverInverseQueued: Bool

    /// Creates the payload.
    public init(actionID: EventID, serverInverseQueued: Bool) {
        self.actionID = actionID
        self.serverInverseQueued = serverInverseQueued
    }

    package func encode(to w: inout ByteWriter) {
        w.write(actionID)
        w.write(serverInverseQueued)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        actionID = try r.read()
        serverInverseQueued = try r.read()
    }
}
