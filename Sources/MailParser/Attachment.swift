/// An attachment or inline resource found in the MIME tree.
package struct Attachment: Sendable, Hashable {
    /// The file name (RFC 2231 / RFC 2047 decoded), if any: at most ``maxFilenameBytes`` of it.
    package var filename: String?
    /// The lowercased `type/subtype`: at most ``maxMimeTypeBytes`` of it.
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
        self.filename = filename.map { Attachment.cut($0, maxBytes: Attachment.maxFilenameBytes) }
        self.mimeType = Attachment.cut(mimeType, maxBytes: Attachment.maxMimeTypeBytes)
        self.size = size
        self.isInline = isInline
        self.contentID = contentID
        self.bodyRange = bodyRange
        self.transferEncoding = transferEncoding
    }

    /// The most UTF-8 bytes of a file name kept (255, as most file systems allow); a longer one is cut at a
    /// character's end. A header may be 64 KiB, and a message 10,000 parts: names were the bulk of its events.
    package static let maxFilenameBytes = 255
    /// The most UTF-8 bytes of a MIME type kept (255: RFC 6838 allows 127 for the type and for the subtype).
    package static let maxMimeTypeBytes = 255

    /// `text` whole when it has at most `maxBytes` UTF-8 bytes, else its longest beginning of whole characters
    /// within them (of whole Unicode scalars when the first character alone is longer: a mark-laden one).
    package static func cut(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var end = text.startIndex, bytes = 0
        for c in text {
            let n = c.utf8.count
            guard bytes + n <= maxBytes else { break }
            bytes += n
            end = text.index(after: end)
        }
        if end > text.startIndex { return String(text[..<end]) }
        var scalars = String.UnicodeScalarView()
        bytes = 0
        for u in text.unicodeScalars {
            let n = UTF8.width(u)
            guard bytes + n <= maxBytes else { break }
            bytes += n
            scalars.append(u)
        }
        return String(scalars)
    }
}
