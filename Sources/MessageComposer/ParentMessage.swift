import Foundation
import MailParser

/// What a reply or forward needs of the message it answers or passes on.
package struct ParentMessage: Sendable {
    /// Its `Message-ID`, without angle brackets.
    package var messageID: String?
    /// Its `References` ids, oldest first.
    package var references: [String]
    /// Its `In-Reply-To` ids.
    package var inReplyTo: [String]
    /// Its subject, decoded.
    package var subject: String?
    /// Its authors.
    package var from: [MailAddress]
    /// Where its authors ask replies to go (`Reply-To`), if anywhere but `from`.
    package var replyTo: [MailAddress]
    /// Its `To` recipients.
    package var to: [MailAddress]
    /// Its `Cc` recipients.
    package var cc: [MailAddress]
    /// Its date.
    package var date: Date?
    /// Its plain text.
    package var text: String

    /// A parent with the given parts.
    package init(messageID: String?, references: [String] = [], inReplyTo: [String] = [], subject: String?,
                from: [MailAddress], replyTo: [MailAddress] = [], to: [MailAddress] = [], cc: [MailAddress] = [],
                date: Date?, text: String) {
        self.messageID = messageID
        self.references = references
        self.inReplyTo = inReplyTo
        self.subject = subject
        self.from = from
        self.replyTo = replyTo
        self.to = to
        self.cc = cc
        self.date = date
        self.text = text
    }

    /// The parent as ``MailParser`` read it (its plain text, or the text of its HTML when it has none).
    package init(_ parsed: ParsedMessage) {
        self.init(messageID: parsed.messageID, references: parsed.references, inReplyTo: parsed.inReplyTo,
                  subject: parsed.subject, from: parsed.from, replyTo: parsed.replyTo, to: parsed.to, cc: parsed.cc, date: parsed.date,
                  text: parsed.textBody ?? parsed.htmlBody.map { HTMLText.plainText($0) } ?? "")
    }
}
