import EventModel

/// One copy of a message: which email and in which folder.
public struct DedupCopy: BinaryField, Equatable, Sendable {
    public var emailID: String
    public var folder: String

    public init(emailID: String, folder: String) {
        self.emailID = emailID
        self.folder = folder
    }

    @usableFromInline package func write(to w: inout ByteWriter) { w.write(emailID); w.write(folder) }
    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) { emailID = try r.read(); folder = try r.read() }
}
