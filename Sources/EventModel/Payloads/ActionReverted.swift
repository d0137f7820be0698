/// Compensation: a refused or undone move/archive/delete is put back.
public struct ActionReverted: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The action it compensates.
    public var actionID: EventID
    /// The copies restored, with their original folder and flags.
    public var targets: [ActionTarget]
    /// Why.
    public var reason: String

    /// Creates the payload.
    package init(actionID: EventID, targets: [ActionTarget], reason: String) {
        self.actionID = actionID
        self.targets = targets
        self.reason = reason
    }

    package func encode(to w: inout ByteWriter) {
        w.write(actionID)
        w.write(targets)
        w.write(reason)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        actionID = try r.read()
        targets = try r.read()
        reason = try r.read()
    }
}
