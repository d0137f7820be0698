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

    /// A composed message with the given parts.
    package init(bytes: [UInt8], messageID: String, envelopeSender: String, envelopeRecipients: [String]) {
        self.bytes = bytes
        self.messageID = messageID
        self.envelopeSender = envelopeSender
        self.envelopeRecipients = envelopeRecipients
    }
}
