import Foundation

/// Everything the parser extracted from one message.
public struct ParsedMessage: Sendable {
    /// All header fields of the message, in order (unfolded, not decoded).
    public var headers: [HeaderField]
    /// The `Message-ID` without angle brackets, if present and usable.
    public var messageID: String?
    /// Ids from `In-Reply-To`, in order.
    public var inReplyTo: [String]
    /// Ids from `References`, in order, de-duplicated.
    public var references: [String]
    /// The RFC 2047 decoded `Subject`.
    public var subject: String?
    /// The `From` mailboxes (usually one).
    public var from: [MailAddress]
    /// The `Sender` mailbox.
    public var sender: MailAddress?
    /// The `Reply-To` addresses.
    public var replyTo: [MailAddress]
    /// The `To` addresses (groups flattened).
    public var to: [MailAddress]
    /// The `Cc` addresses.
    public var cc: [MailAddress]
    /// The `Bcc` addresses.
    public var bcc: [MailAddress]
    /// The message date; see ``dateSource`` for where it came from.
    public var date: Date?
    /// Where ``date`` came from.
    public var dateSource: DateSource
    /// Gmail's `X-GM-THRID` thread id.
    public var gmailThreadID: UInt64?
    /// The `List-Id` identifier (the part inside `<>`, or the whole value).
    public var listID: String?
    /// The root of the MIME tree.
    public var root: MIMEPart
    /// The message's own plain text: the first non-attachment `text/plain`
    /// part, decoded, with line endings normalised to LF.
    public var textBody: String?
    /// The first non-attachment `text/html` part, decoded.
    public var htmlBody: String?
    /// Up to 100 characters of the message's own text (quotes, attribution
    /// and signature removed, whitespace collapsed).
    public var snippet: String
    /// Attachments and inline resources, in tree order.
    public var attachments: [Attachment]
    /// From, then To, then Cc, de-duplicated by normalized address.
    public var participants: [MailAddress]
    /// Problems found while parsing.
    public var warnings: [ParseWarning]

    /// Whether any attachment is a real (non-inline) attachment.
    public var hasAttachments: Bool { attachments.contains { !$0.isInline } }
}
