/// A message ready to send: its bytes and its envelope.
public struct ComposedMessage: Sendable, Hashable {
    /// The RFC 5322 message, CRLF line ends, no line longer than 998 bytes.
    public var bytes: [UInt8]
    /// The generated `Message-ID`, without angle brackets.
    public var messageID: String
    /// The envelope sender (`MAIL FROM`): the author's address.
    public var envelopeSender: String
    /// The envelope recipients (`RCPT TO`): To, Cc and Bcc addresses, each once, in that order.
    public var envelopeRecipients: [String]

    /// A composed message with the given parts.
    public init(bytes: [UInt8], messageID: String, envelopeSender: String, envelopeRecipients: [String]) {
        self.bytes = bytes
        self.messageID = messageID
        self.envelopeSender = envelopeSender
        self.envelopeRecipients = envelopeRecipients
    }
}
