/// An attachment or inline part of a received email.
public struct AttachmentInfo: Hashable, Sendable, Encodable, BinaryField {
    /// The file name, when the part names one.
    public var filename: String?
    /// The MIME type, lowercased (e.g. `application/pdf`).
    public var mimeType: String
    /// The decoded size in bytes (estimated from the encoded length for base64).
    public var size: UInt64
    /// True for inline parts (images shown in the body), which do not count as attachments.
    public var isInline: Bool

    /// Creates attachment info.
    public init(filename: String?, mimeType: String, size: UInt64, isInline: Bool) {
        self.filename = filename
        self.mimeType = mimeType
        self.size = size
        self.isInline = isInline
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(filename)
        w.write(mimeType)
        w.write(size)
        w.write(isInline)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        filename = try r.read()
        mimeType = try r.read()
        size = try r.read()
        isInline = try r.read()
    }
}
