/// A file to attach to a ``MessageDraft``.
public struct DraftAttachment: Sendable, Hashable {
    /// The file name shown to the recipient (any Unicode; RFC 2231-encoded when not ASCII).
    public var filename: String
    /// The MIME type, e.g. `application/pdf`; anything that is not `type/subtype` is sent as
    /// `application/octet-stream`.
    public var mimeType: String
    /// The file's bytes.
    public var data: [UInt8]

    /// An attachment with the given parts.
    public init(filename: String, mimeType: String, data: [UInt8]) {
        self.filename = filename
        self.mimeType = mimeType
        self.data = data
    }
}
