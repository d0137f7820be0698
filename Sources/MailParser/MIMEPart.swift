/// One node of a message's MIME tree (RFC 2045/2046).
///
/// Byte ranges are offsets into the input given to `MailParser.parse`,
/// also for parts of embedded (`message/rfc822`) messages.
package struct MIMEPart: Sendable {
    /// Lowercased `type/subtype`; `text/plain` when absent or invalid
    /// (`message/rfc822` inside `multipart/digest`).
    package var contentType: String
    /// `Content-Type` parameters keyed by lowercased name (RFC 2231 joined
    /// and decoded).
    package var parameters: [String: String]
    /// The `Content-Disposition`, if present.
    package var disposition: ContentDisposition?
    /// `Content-Disposition` parameters keyed by lowercased name.
    package var dispositionParameters: [String: String]
    /// The file name from the disposition `filename` or Content-Type `name`.
    package var filename: String?
    /// The `Content-ID` without angle brackets.
    package var contentID: String?
    /// The `Content-Transfer-Encoding`.
    package var transferEncoding: TransferEncoding
    /// This part's own header fields (for the root part: the message headers).
    package var headers: [HeaderField]
    /// Where this part's header section lies in the input.
    package var headerRange: Range<Int>
    /// Where this part's (still encoded) body lies in the input.
    package var bodyRange: Range<Int>
    /// The sub-parts of a multipart part, in order. Empty for leaves and for
    /// `message/rfc822` parts, whose content is in ``embedded``.
    package var children: [MIMEPart]
    /// Storage for ``embedded`` (a class box breaks the struct cycle).
    var embeddedBox: EmbeddedMessage?

    /// The parsed message inside a `message/rfc822` (or `message/global`)
    /// part, with its own headers, tree and derived fields.
    package var embedded: ParsedMessage? { embeddedBox?.message }

    /// The media type (before the slash), for example `text`.
    package var type: String {
        guard let slash = contentType.firstIndex(of: "/") else { return contentType }
        return String(contentType[..<slash])
    }

    /// The media subtype (after the slash), for example `plain`.
    package var subtype: String {
        guard let slash = contentType.firstIndex(of: "/") else { return "" }
        return String(contentType[contentType.index(after: slash)...])
    }

    /// The `charset` parameter, if any.
    package var charset: String? { parameters["charset"] }

    /// Whether this is a `multipart/*` part.
    package var isMultipart: Bool { contentType.hasPrefix("multipart/") }

    /// Creates a part.
    package init(contentType: String = "text/plain", parameters: [String: String] = [:],
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
    package func header(_ name: String) -> String? {
        headers.first { $0.hasName(name) }?.value
    }
}
