/// A non-fatal problem found while parsing a message.
///
/// The parser never fails: malformed input is parsed as well as possible and
/// every deviation it had to work around is reported as a `ParseWarning`.
package struct ParseWarning: Sendable, Hashable, Codable {
    /// The kind of problem.
    package enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// No blank line separates the header section from the body.
        case noHeaderBodySeparator
        /// The input contains NUL bytes (they are removed from header values).
        case nulBytes
        /// A header line has no colon or an invalid field name; it was skipped.
        case invalidHeaderLine
        /// A header value was longer than the stored cap and was truncated.
        case headerTooLong
        /// More header fields than the parser keeps; the rest were skipped.
        case tooManyHeaders
        /// The `Date:` header could not be parsed.
        case unparseableDate
        /// The message has no `Date:` header.
        case missingDate
        /// A date had no time zone; UTC was assumed.
        case missingTimeZone
        /// An address could not be parsed cleanly; see `MailAddress.raw`.
        case malformedAddress
        /// A `Message-ID` (or reference) was not in `<id@host>` form.
        case malformedMessageID
        /// A multipart boundary was missing, never found or not closed.
        case brokenBoundary
        /// MIME parts were nested deeper than the parser follows.
        case nestingTooDeep
        /// Base64 or quoted-printable data contained invalid characters.
        case badEncoding
        /// The `Content-Transfer-Encoding` is not one defined by MIME.
        case unknownTransferEncoding
        /// A charset name was not recognised.
        case unknownCharset
        /// Bytes not valid in the declared charset were replaced by U+FFFD.
        case invalidCharsetBytes
        /// More warnings than the parser records; the rest were dropped.
        case tooManyWarnings
        /// More MIME parts than the parser keeps; the rest were ignored.
        case tooManyParts
        /// More addresses in one field (its repeated headers together) than the parser keeps; the rest were ignored.
        case tooManyAddresses
        /// The message's own text or HTML part holds more text than ``ParsedMessage/maxBodyTextBytes``; its text
        /// was cut there.
        case bodyTextCut
        /// More attachments, or more bytes of their names and types, than ``ParsedMessage/attachments`` lists
        /// (``ParsedMessage/maxListedAttachments``, ``ParsedMessage/maxAttachmentListBytes``); the first ones kept.
        case tooManyAttachments
        /// The message's date lay more than a day past its arrival or the present; the arrival was kept
        /// (``FutureDate``).
        case futureDate
    }

    /// The kind of problem.
    package var code: Code
    /// A short human-readable description with context (never the whole input).
    package var detail: String

    /// Creates a warning.
    package init(code: Code, detail: String) {
        self.code = code
        self.detail = detail
    }
}
