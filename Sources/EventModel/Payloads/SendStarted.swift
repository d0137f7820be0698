/// Submission began.
public struct SendStarted: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The draft.
    public var draftID: String
    /// Attempt number (1-based).
    public var attempt: UInt32

    /// Creates the payload.
    public init(draftID: String, attempt: UInt32) {
        self.draftID = draftID
        self.attempt = attempt
    }

    package func encode(to w: inout ByteWriter) {
        w.write(draftID)
        w.write(attempt)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        draftID = try r.read()
        attempt = try r.read()
    }
}
