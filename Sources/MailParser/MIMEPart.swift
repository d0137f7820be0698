/// One node of a message's MIME tree (RFC 2045/2046).
///
/// Byte ranges are offsets into the input given to `MailParser.parse`,
/// also for parts of embedded (`message/rfc822`) messages.
public struct MIMEPart: Sendable {
    /// Lowercased `type/subtype`; `text/plain` when absent or invalid
    /// (`message/rfc822` inside `multipart/digest`).
    public var contentType: String
    /// `Content-Type` parameters keyed by lowercased name (RFC 2231 joined
    /// and decoded).
    public var parameters: [String: String]
    /// The `Content-Disposition`, if present.
    public var disposition: ContentDisposition?
    /// `Content-Disposition` parameters keyed by lowercased name.
    public var dispositionParameters: [String: String]
    /// The file name from the disposition `filename` or Content-Type `name`.
    public var filename: String?
    /// The `Content-ID` without angle brackets.
    public var contentID: String?
    /// The `Content-Transfer-Encoding`.
    public var transferEncoding: TransferEncoding
    /// This part's own header fields (for the root part: the message headers).
    public var headers: [HeaderField]
    /// Where this part's header section lies in the input.
    public var headerRange: Range<Int>
    /// Where this part's (still encoded) body lies in the input.
    public var bodyRange: Range<Int>
    /// The sub-parts of a multipart part, in order. Empty for leaves and for
    /// `message/rfc822` parts, whose content is in ``embedded``.
    public var children: [MIMEPart]
    /// Storage for ``embedded`` (a class box breaks the struct cycle).
    var embeddedBox: EmbeddedMessage?

    /// The parsed message inside a `message/rfc822` (or `message/global`)
    /// part, with its own headers, tree and derived fields.
    public var embedded: ParsedMessage? { embeddedBox?.message }

    /// The media type (before the slash), for example `text`.
    public var type: String {
        guard let slash = contentType.firstIndex(of: "/") else { return contentType }
        return String(contentType[..<slash])
    }

    /// The media subtype (after the slash), for example `plain`.
    public var subtype: String {
        guard let slash = contentType.firstIndex(of: "/") else { return "" }
        return String(contentType[contentType.index(after: slash)...])
    }

    /// The `charset` parameter, if any.
    public var charset: String? { parameters["charset"] }

    /// Whether this is a `multipart/*` part.
    public var isMultipart: Bool { contentType.hasPrefix("multipart/") }

    /// Creates a part.
    public init(contentType: String = "text/plain", parameters: [String: String] = [:],
                disposition: ContentDisposition? = nil, dispositionParameters: [String: String] = [:],
                filename: String? = nil, contentID: String? = nil, transferEncoding: TransferEncoding = .sevenBit,
                headers: [HeaderField] = [], headerRange: Range<Int> = 0..<0, bodyRange: Range<Int> = 0..<0,
                children: [MIMEPart] = [], embedded: ParsedMessage? = nil) {
        self.contentType = contentType
        self.parameters = parameters
        self.disposition = disposition
        self.dispositionParameters = dispositionParameters
        self.filename = filename
        self.contentID = contentID
        self.transferEncoding = transferEncoding
        self.headers = headers
        self.headerRange = headerRange
        self.bodyRange = bodyRange
        self.children = children
        self.embeddedBox = embedded.map { EmbeddedMessage($0) }
    }

    /// The value of this part's first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.hasName(name) }?.value
    }
}
