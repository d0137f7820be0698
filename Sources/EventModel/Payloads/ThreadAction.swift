/// A user action on one or more threads, applied optimistically. The event id is the action id. It records its resolved targets (each email, folder and flags at that moment) so replay never depends on later state.
public struct ThreadAction: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The threads acted on.
    public var threadIDs: [String]
    /// Each email copy acted on, with its folder and flags before the action.
    public var targets: [ActionTarget]
    /// Destination folder (archive, delete, move).
    public var destination: String?

    /// Creates the payload.
    package init(threadIDs: [String], targets: [ActionTarget], destination: String? = nil) {
        self.threadIDs = threadIDs
        self.targets = targets
        self.destination = destination
    }

    package func encode(to w: inout ByteWriter) {
        w.write(threadIDs)
        w.write(targets)
        w.write(destination)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        threadIDs = try r.read()
        targets = try r.read()
        destination = try r.read()
    }
}
