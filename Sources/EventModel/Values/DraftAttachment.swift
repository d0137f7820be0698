/// A file attached to a draft; its bytes are in the blob store.
public struct DraftAttachment: Hashable, Sendable, Encodable, BinaryField {
    /// The file name shown to recipients.
    public var filename: String
    /// The MIME type.
    public var mimeType: String
    /// The size in bytes.
    public var size: UInt64
    /// The content's key in the blob store.
    public var blob: BlobHash

    /// Creates a draft attachment.
    public init(filename: String, mimeType: String, size: UInt64, blob: BlobHash) {
        self.filename = filename
        self.mimeType = mimeType
        self.size = size
        self.blob = blob
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(filename)
        w.write(mimeType)
        w.write(size)
        w.write(blob)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        filename = try r.read()
        mimeType = try r.read()
        size = try r.read()
        blob = try r.read()
    }
}
