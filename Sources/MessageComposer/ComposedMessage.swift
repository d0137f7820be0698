/// A message ready to send: its bytes and its envelope.
package struct ComposedMessage: Sendable, Hashable {
    /// The RFC 5322 message, CRLF line ends, no line longer than 998 bytes.
    package var bytes: [UInt8]
    /// The generated `Message-ID`, without angle brackets.
    package var messageID: String
    /// The envelope sender (`MAIL FROM`): the author's address.
    package var envelopeSender: String
    /// The envelope recipients (`RCPT TO`): To, Cc and Bcc addresses, each once, in that order.
    package var envelopeRecipients: [String]
    /// The `Bcc` field (folded, with its CRLF) of the sender's own copy; empty without Bcc recipients.
    package var bccField: [UInt8]
    /// Where ``bccField`` goes in ``bytes`` (after To and Cc): an offset within the header section.
    package var bccOffset: Int
    /// The header in seven bits when ``bytes``' header has raw UTF-8 (an address beyond ASCII), else nil.
    package var sevenBitHeader: SevenBitHeader?

    /// A composed message with the given parts.
    package init(bytes: [UInt8], messageID: String, envelopeSender: String, envelopeRecipients: [String],
                 bccField: [UInt8] = [], bccOffset: Int = 0) {
        self.bytes = bytes
        self.messageID = messageID
        self.envelopeSender = envelopeSender
        self.envelopeRecipients = envelopeRecipients
        self.bccField = bccField
        self.bccOffset = min(max(0, bccOffset), bytes.count)
    }

    /// The message as filed in the sender's own folders (Sent, Drafts): ``bytes`` with the `Bcc` field, so the
    /// sender still sees whom they sent a blind copy to (as Thunderbird and Apple Mail file it). The same bytes as
    /// ``bytes`` when there is no Bcc. Never the bytes to submit: Bcc recipients must not see each other.
    package var filedCopy: [UInt8] {
        guard !bccField.isEmpty else { return bytes }
        return Array(bytes[..<bccOffset]) + bccField + Array(bytes[bccOffset...])
    }

    /// ``filedCopy`` with its header in seven bits (``sevenBitHeader``): what is APPENDed to a server that has not
    /// enabled UTF8=ACCEPT. The same bytes as ``filedCopy`` when the header has no raw UTF-8. The body is unchanged
    /// (8-bit text is allowed in an APPEND, RFC 3501 section 6.3.11). A cleared ``bccField`` leaves its Bcc out too.
    package var sevenBitFiledCopy: [UInt8] {
        guard let h = sevenBitHeader, h.replacing <= bytes.count else { return filedCopy }
        let bcc = bccField.isEmpty ? [] : h.bccField
        return Array(h.bytes[..<h.bccOffset]) + bcc + Array(h.bytes[h.bccOffset...]) + Array(bytes[h.replacing...])
    }
}
