/// An attachment or inline resource found in the MIME tree.
public struct Attachment: Sendable, Hashable {
    /// The file name (RFC 2231 / RFC 2047 decoded), if any.
    public var filename: String?
    /// The lowercased `type/subtype`.
    public var mimeType: String
    /// The decoded size in bytes (estimated for base64).
    public var size: Int
    /// Whether this is an inline resource (for example an image referenced
    /// from HTML) rather than a real attachment.
    public var isInline: Bool
    /// The `Content-ID` without angle brackets, if any.
    public var contentID: String?
    /// Where the (still encoded) body lies in the parsed input.
    public var bodyRange: Range<Int>
    /// How the body is encoded.
    public var transferEncoding: TransferEncoding

    /// Creates an attachment description.
    public init(filename: String?, mimeType: String, size: Int, isInline: Bool, contentID: String?,
                bodyRange: Range<Int> = 0..<0, transferEncoding: TransferEncoding = .sevenBit) {
        self.filename = filename
        self.mimeType = mimeType
        self.size = size
        self.isInline = isInline
        self.contentID = contentID
        self.bodyRange = bodyRange
        self.transferEncoding = transferEncoding
    }
}
