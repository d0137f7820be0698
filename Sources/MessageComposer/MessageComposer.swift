import Foundation
import MailParser

/// Builds RFC 5322 messages to send (RFC 2045-2047 and 2231 for MIME), and the subjects, threading
/// ids and quoted text of replies and forwards. Pure: no I/O; the clock and randomness come in.
///
/// ```swift
/// let draft = MessageDraft(from: MailAddress(name: "Alice", email: "alice@example.com"),
///                          to: [MailAddress(name: "Bob", email: "bob@example.com")],
///                          subject: "Grüße", text: "Hello!\n")
/// let message = try MessageComposer.compose(draft)
/// try smtp.send(from: message.envelopeSender, recipients: message.envelopeRecipients, message: message.bytes)
/// ```
package enum MessageComposer {
    /// Composes `draft` with a random Message-ID and boundary.
    package static func compose(_ draft: MessageDraft) throws(ComposeError) -> ComposedMessage {
        var generator = SystemRandomNumberGenerator()
        return try compose(draft, using: &generator)
    }

    /// Composes `draft`: Date, From, To (or `undisclosed-recipients:;` when only Bcc is given), Cc,
    /// Subject, Message-ID, In-Reply-To and References when replying, MIME-Version; the text as
    /// `text/plain; charset=utf-8` (7bit, 8bit, quoted-printable or base64), inside `multipart/mixed` with
    /// base64 attachments when there are any (an attached message 7bit or 8bit: `attachmentPart`). The envelope names
    /// each mailbox once (``MailAddress/mailboxKey``: the local part as written, the domain without its case). Bcc
    /// recipients are in the envelope only; the copy filed in the sender's own Sent or Drafts folder (``ComposedMessage/filedCopy``)
    /// also has them in a `Bcc` field. With an address beyond ASCII (the only raw UTF-8 a header gets), also that header
    /// in seven bits (``ComposedMessage/sevenBitHeader``), for the copies filed on an IMAP server without UTF8=ACCEPT.
    ///
    /// Throws ``ComposeError`` for unusable addresses, no recipient or a bad Message-ID domain.
    package static func compose(_ draft: MessageDraft,
                               using generator: inout some RandomNumberGenerator) throws(ComposeError) -> ComposedMessage {
        try validate(draft)
        let messageID = randomHex(16, using: &generator) + "@" + draft.messageIDDomain
        let addressed = addressedHeader(draft, messageID: messageID, sevenBit: false)
        var header = addressed.header
        // An address beyond ASCII is the only raw UTF-8 a header gets (names and the subject are encoded words): the
        // copy for an IMAP server that has not enabled UTF8=ACCEPT gets those addresses downgraded (RFC 6857).
        let eightBit = (draft.to + draft.cc + draft.bcc + [draft.from]).contains { !$0.email.utf8.allSatisfy { $0 < 0x80 } }
        var sevenBit = eightBit ? addressedHeader(draft, messageID: messageID, sevenBit: true) : nil
        let text = textPart(draft.text, allowsEightBit: draft.allowsEightBit)
        var body: [UInt8]
        if draft.attachments.isEmpty {
            text.headers.forEach { header.add($0.name, tokens: $0.tokens); sevenBit?.header.add($0.name, tokens: $0.tokens) }
            body = text.body
        } else {
            let parts = [text] + draft.attachments.map { attachmentPart($0, allowsEightBit: draft.allowsEightBit) }
            let boundary = uniqueBoundary(for: parts, using: &generator)
            let contentType = ["multipart/mixed;"] + MIMEParameter.tokens("boundary", boundary)
            header.add("Content-Type", tokens: contentType)
            sevenBit?.header.add("Content-Type", tokens: contentType)
            body = multipartBody(parts, boundary: boundary)
        }
        var recipients: [String] = []
        var seen: Set<String> = []
        // Each mailbox once: the local part compared as written, the domain without its case (RFC 5321 §2.4).
        for address in draft.to + draft.cc + draft.bcc where seen.insert(address.mailboxKey).inserted {
            recipients.append(address.email)
        }
        var composed = ComposedMessage(bytes: header.bytes + [0x0D, 0x0A] + body, messageID: messageID,
                                       envelopeSender: draft.from.email, envelopeRecipients: recipients,
                                       bccField: addressed.bccField, bccOffset: addressed.bccOffset)
        if let sevenBit {
            composed.sevenBitHeader = SevenBitHeader(bytes: sevenBit.header.bytes, replacing: header.bytes.count,
                                                     bccField: sevenBit.bccField, bccOffset: sevenBit.bccOffset)
        }
        return composed
    }

    /// The header fields from Date to MIME-Version (the content fields follow), where the filed copy's Bcc field goes
    /// and that field. With `sevenBit`, addresses beyond ASCII are downgraded (``mailboxTokens(_:sevenBit:)``).
    private static func addressedHeader(_ draft: MessageDraft, messageID: String,
                                        sevenBit: Bool) -> (header: HeaderWriter, bccOffset: Int, bccField: [UInt8]) {
        var header = HeaderWriter()
        header.add("Date", tokens: [MessageDate.format(draft.date, timeZone: draft.timeZone)])
        header.add("From", tokens: mailboxTokens([draft.from], sevenBit: sevenBit))
        if draft.to.isEmpty && draft.cc.isEmpty {
            header.add("To", tokens: ["undisclosed-recipients:;"])
        } else if !draft.to.isEmpty {
            header.add("To", tokens: mailboxTokens(draft.to, sevenBit: sevenBit))
        }
        if !draft.cc.isEmpty { header.add("Cc", tokens: mailboxTokens(draft.cc, sevenBit: sevenBit)) }
        // Where the filed copy's Bcc field goes: after To and Cc, as a reader expects it.
        let bccOffset = header.bytes.count
        let bccField = draft.bcc.isEmpty ? [] : Array(HeaderWriter.field("Bcc", tokens: mailboxTokens(draft.bcc, sevenBit: sevenBit)).utf8)
        header.add("Subject", text: draft.subject)
        header.add("Message-ID", tokens: ["<\(messageID)>"])
        if let parent = draft.inReplyTo.flatMap(cleanID) { header.add("In-Reply-To", tokens: ["<\(parent)>"]) }
        let references = draft.references.compactMap(cleanID)
        if !references.isEmpty { header.add("References", tokens: references.map { "<\($0)>" }) }
        header.add("MIME-Version", tokens: ["1.0"])
        return (header, bccOffset, bccField)
    }

    /// Throws unless every address is usable, there is a recipient and the Message-ID domain is a host name.
    private static func validate(_ draft: MessageDraft) throws(ComposeError) {
        var invalid: [InvalidAddress] = []
        let fields: [(AddressField, [MailAddress])] = [(.from, [draft.from]), (.to, draft.to), (.cc, draft.cc), (.bcc, draft.bcc)]
        for (field, addresses) in fields {
            for address in addresses {
                if let reason = AddressList.problem(with: address.email) {
                    invalid.append(InvalidAddress(field: field, entry: address.email, reason: reason))
                }
            }
        }
        guard invalid.isEmpty else { throw .invalidAddresses(invalid) }
        guard !(draft.to + draft.cc + draft.bcc).isEmpty else { throw .noRecipients }
        let domain = draft.messageIDDomain
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !domain.isEmpty, labels.allSatisfy({ label in
            !label.isEmpty && label.unicodeScalars.allSatisfy { $0.isASCII && (Character($0).isLetter || Character($0).isNumber || $0 == "-") }
        }) else { throw .invalidMessageIDDomain(domain) }
    }

    /// Mailboxes as header tokens: `Name <address>` (or the bare address), commas between them.
    ///
    /// With `sevenBit`, an address beyond ASCII (its local part or its domain) is downgraded as RFC 6857 (section 3)
    /// says for a header without UTF-8: `Name <address>` (or the address) as encoded words that name an empty group,
    /// `=?utf-8?B?...?= :;`. Nothing is lost (a reader decodes the name and address), but the group holds no address a
    /// reader can reply to: only the copies filed over IMAP get it, never the bytes sent.
    static func mailboxTokens(_ addresses: [MailAddress], sevenBit: Bool = false) -> [String] {
        var tokens: [String] = []
        for (index, address) in addresses.enumerated() {
            let phrase = HeaderWriter.phraseTokens(address.name ?? "")
            var mailbox = phrase.isEmpty ? [address.email] : phrase + ["<\(address.email)>"]
            if sevenBit, !address.email.utf8.allSatisfy({ $0 < 0x80 }) {
                let name = HeaderWriter.sanitized(address.name ?? "").trimmingCharacters(in: .init(charactersIn: " "))
                mailbox = HeaderWriter.encodedWords(name.isEmpty ? address.email : "\(name) <\(address.email)>") + [":;"]
            }
            if index < addresses.count - 1 { mailbox[mailbox.count - 1] += "," }
            tokens += mailbox
        }
        return tokens
    }

    /// The longest message id written into In-Reply-To or References (without its brackets): an id is not folded, and
    /// `In-Reply-To: <id>` must fit a line's 998 bytes. A longer one (no real id is) is left out.
    static let maxIDBytes = 900

    /// A message id without angle brackets and surrounding space, or nil when it cannot be written or is no msg-id
    /// (RFC 5322 §3.6.4: `left@right`; an id cut short by a header's bound had none).
    static func cleanID(_ id: String) -> String? {
        var text = Substring(id.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("<") && text.hasSuffix(">") && text.count >= 2 { text = text.dropFirst().dropLast() }
        // At most `maxIDBytes`: an id cannot be folded, and a longer one would not fit a header line.
        guard !text.isEmpty, text.utf8.count <= maxIDBytes, text.dropFirst().dropLast().contains("@"),
              text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "<" && $0 != ">" })
        else { return nil }
        return String(text)
    }

    /// `count` random bytes as lowercase hex.
    static func randomHex(_ count: Int, using generator: inout some RandomNumberGenerator) -> String {
        let hex = Array("0123456789abcdef")
        var out = ""
        for _ in 0..<count {
            let byte = UInt8.random(in: 0...255, using: &generator)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return out
    }
}
