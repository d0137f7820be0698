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
    /// The `charset` of a text attachment taken from a stored message (a forward's), as its part's `Content-Type`
    /// named it; nil for others and in `DraftSaved` before schema 2. Not in this value's binary form: `DraftSaved`
    /// carries it apart (its `attachmentCharsets`, schema 2), so version 1 records read as they were written.
    public var charset: String?

    /// Creates a draft attachment.
    public init(filename: String, mimeType: String, size: UInt64, blob: BlobHash, charset: String? = nil) {
        self.filename = filename
        self.mimeType = mimeType
        self.size = size
        self.blob = blob
        self.charset = charset
    }

    /// Writes the version 1 form: without `charset` (see there).
    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(filename)
        w.write(mimeType)
        w.write(size)
        w.write(blob)
    }

    /// Reads the version 1 form: `charset` is nil (see there).
    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        filename = try r.read()
        mimeType = try r.read()
        size = try r.read()
        blob = try r.read()
        charset = nil
    }
}
