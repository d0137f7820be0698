import Foundation

/// Everything the parser extracted from one message.
package struct ParsedMessage: Sendable {
    /// All header fields of the message, in order (unfolded, not decoded).
    package var headers: [HeaderField]
    /// The `Message-ID` without angle brackets, if present and usable.
    package var messageID: String?
    /// Ids from `In-Reply-To`, in order.
    package var inReplyTo: [String]
    /// Ids from `References`, in order, de-duplicated.
    package var references: [String]
    /// The RFC 2047 decoded `Subject`.
    package var subject: String?
    /// The `From` mailboxes (usually one).
    package var from: [MailAddress]
    /// The `Sender` mailbox.
    package var sender: MailAddress?
    /// The `Reply-To` addresses.
    package var replyTo: [MailAddress]
    /// The `To` addresses (groups flattened).
    package var to: [MailAddress]
    /// The `Cc` addresses.
    package var cc: [MailAddress]
    /// The `Bcc` addresses.
    package var bcc: [MailAddress]
    /// The message date; see ``dateSource`` for where it came from.
    package var date: Date?
    /// Where ``date`` came from.
    package var dateSource: DateSource
    /// Gmail's `X-GM-THRID` thread id.
    package var gmailThreadID: UInt64?
    /// The `List-Id` identifier (the part inside `<>`, or the whole value).
    package var listID: String?
    /// The root of the MIME tree.
    package var root: MIMEPart
    /// The message's own plain text: the first non-attachment `text/plain`
    /// part, decoded, with line endings normalised to LF; at most
    /// ``maxBodyTextBytes`` of it.
    package var textBody: String?
    /// The first non-attachment `text/html` part, decoded; at most
    /// ``maxBodyTextBytes`` of it.
    package var htmlBody: String?
    /// Up to 100 characters of the message's own text (quotes, attribution
    /// and signature removed, whitespace collapsed).
    package var snippet: String
    /// Attachments and inline resources, in tree order: at most ``maxListedAttachments`` of them, and only while
    /// their names and types total at most ``maxAttachmentListBytes``, real attachments taken first and inline parts
    /// filling what is left (a `tooManyAttachments` warning says how many of each were left out). Each name is at
    /// most ``Attachment/maxFilenameBytes``, each type ``Attachment/maxMimeTypeBytes``.
    package var attachments: [Attachment]
    /// How many real (not inline) attachments the message has that ``attachments`` leaves out (0 within the
    /// bounds): a forward cannot carry them, and says so.
    package var unlistedAttachments: Int
    /// From, then To, then Cc, de-duplicated by normalized address.
    package var participants: [MailAddress]
    /// Problems found while parsing.
    package var warnings: [ParseWarning]

    /// The most UTF-8 bytes of text ``textBody`` and ``htmlBody`` each hold (8 MiB). A longer part's text is cut
    /// there, at a Unicode scalar's end, with a `bodyTextCut` warning, and decoded from the first ~12 MiB of its
    /// encoded body only (``TextWindow/first(for:)``; a part whose text shrinks more than that, quoted-printable full
    /// of escapes, keeps less). Memory: a parse of a 60 MB body holds the message, ~12 MiB of window text (~24 MiB
    /// where line ends or a charset are converted through a copy; ~60 MiB at the very worst, bytes that each become
    /// three) and the 8 MiB kept, where it held the message and two decoded copies of it (~180 MB). Every reader
    /// keeps less than this: `show` prints 1 MiB, a snippet is 100 characters, the categorizer reads 32 KiB of
    /// HTML, a reply quotes what is here.
    package static let maxBodyTextBytes = 8 << 20

    /// The most attachments ``attachments`` lists (1,000). Every event recording the message carries the list
    /// (`EmailReceived.attachments`), and the search index its names: a message of 9,000 parts with ~6 KB names
    /// made 32 MiB events and a 116 MB index entry each.
    package static let maxListedAttachments = 1_000
    /// The most bytes of names and types, together, ``attachments`` holds (64 KiB: ~1,600 attachments of ordinary
    /// names, 128 with names and types at their bounds).
    package static let maxAttachmentListBytes = 64 << 10

    /// Whether any attachment is a real (non-inline) attachment.
    package var hasAttachments: Bool { attachments.contains { !$0.isInline } }
}
