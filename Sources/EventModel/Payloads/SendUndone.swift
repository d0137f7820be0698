/// Undo send within the delay: the draft is back.
public struct SendUndone: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The draft.
    public var draftID: String

    /// Creates the payload.
    public init(draftID: String) {
        self.draftID = draftID
    }

    package func encode(to w: inout ByteWriter) {
        w.write(draftID)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        draftID = try r.read()
    }
}
