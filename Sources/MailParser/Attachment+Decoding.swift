extension Attachment {
    /// The attachment's bytes with their transfer encoding removed (base64, quoted-printable). `message` must be the
    /// same bytes that were given to `MailParser.parse`; a range past them is clamped, so the result is at most
    /// `message.count` bytes.
    package func decodedBody(in message: [UInt8]) -> [UInt8] {
        MIMEPart(contentType: mimeType, transferEncoding: transferEncoding, bodyRange: bodyRange).decodedBody(in: message)
    }
}
