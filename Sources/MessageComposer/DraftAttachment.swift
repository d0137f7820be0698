/// A file to attach to a ``MessageDraft``.
package struct DraftAttachment: Sendable, Hashable {
    /// The file name shown to the recipient (any Unicode; RFC 2231-encoded when not ASCII).
    package var filename: String
    /// The MIME type, e.g. `application/pdf`; anything that is not `type/subtype` is sent as
    /// `application/octet-stream`.
    package var mimeType: String
    /// The file's bytes.
    package var data: [UInt8]
    /// The `charset` of a `text/*` attachment, sent as its `Content-Type` parameter; left out for other types and
    /// when it is no RFC 2045 token of at most 64 bytes (`MIMEParameter.validCharset`).
    package var charset: String?

    /// An attachment with the given parts.
    package init(filename: String, mimeType: String, data: [UInt8], charset: String? = nil) {
        self.filename = filename
        self.mimeType = mimeType
        self.data = data
        self.charset = charset
    }
}
