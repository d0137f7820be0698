/// An attachment or inline resource found in the MIME tree.
package struct Attachment: Sendable, Hashable {
    /// The file name (RFC 2231 / RFC 2047 decoded), if any.
    package var filename: String?
    /// The lowercased `type/subtype`.
    package var mimeType: String
    /// The decoded size in bytes (estimated for base64).
    package var size: Int
    /// Whether this is an inline resource (for example an image referenced
    /// from HTML) rather than a real attachment.
    package var isInline: Bool
    /// The `Content-ID` without angle brackets, if any.
    package var contentID: String?
    /// Where the (still encoded) body lies in the parsed input.
    package var bodyRange: Range<Int>
    /// How the body is encoded.
    package var transferEncoding: TransferEncoding

    /// Creates an attachment description.
    package init(filename: String?, mimeType: String, size: Int, isInline: Bool, contentID: String?,
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
