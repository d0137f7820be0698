import Foundation
import MailParser

/// What a message to send is made of: the input of ``MessageComposer/compose(_:)``.
package struct MessageDraft: Sendable {
    /// The author (`From`) and envelope sender.
    package var from: MailAddress
    /// `To` recipients.
    package var to: [MailAddress]
    /// `Cc` recipients.
    package var cc: [MailAddress]
    /// Blind copies: envelope recipients only, never written into the message.
    package var bcc: [MailAddress]
    /// The subject (any Unicode; encoded as RFC 2047 words when not ASCII).
    package var subject: String
    /// The plain text body (any line ends; sent as CRLF).
    package var text: String
    /// Files attached (the message becomes multipart/mixed when there is any).
    package var attachments: [DraftAttachment]
    /// The `Message-ID` of the message replied to (without angle brackets), for `In-Reply-To`.
    package var inReplyTo: String?
    /// The thread's ids (without angle brackets), oldest first, for `References`.
    package var references: [String]
    /// The `Date` of the message.
    package var date: Date
    /// The time zone `Date` is written in.
    package var timeZone: TimeZone
    /// The domain of the generated `Message-ID` (`<random@domain>`), usually the sender's.
    package var messageIDDomain: String
    /// Whether the text may go out as `8bit` (the server must offer 8BITMIME); when false,
    /// non-ASCII text is sent as quoted-printable (base64 when much shorter), which any server takes.
    package var allowsEightBit: Bool

    /// A draft with the given parts; the `Message-ID` domain defaults to the sender's domain.
    package init(from: MailAddress, to: [MailAddress] = [], cc: [MailAddress] = [], bcc: [MailAddress] = [],
                subject: String, text: String, attachments: [DraftAttachment] = [],
                inReplyTo: String? = nil, references: [String] = [], date: Date = Date(),
                timeZone: TimeZone = .current, messageIDDomain: String? = nil, allowsEightBit: Bool = true) {
        self.from = from
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.text = text
        self.attachments = attachments
        self.inReplyTo = inReplyTo
        self.references = references
        self.date = date
        self.timeZone = timeZone
        self.messageIDDomain = messageIDDomain ?? String(from.email.split(separator: "@").last ?? "localhost")
        self.allowsEightBit = allowsEightBit
    }
}
