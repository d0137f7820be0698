import MailParser
import MessageComposer

/// How the outbox writes a message so that any submission server takes it, and every composition of one queuing
/// (the queuing's Message-ID, each try, a later one to a different server, the pending Sent filing) is the same bytes.
extension OutboxUseCase {
    /// `draft` as it is submitted: its text never 8-bit (quoted-printable, or base64 when much shorter: RFC 6152 has a
    /// client convert for a server without 8BITMIME, and converting always keeps the bytes the server's choice
    /// cannot change), and each address whose local part is ASCII with its domain's A-label (`joran@exämple.org`
    /// is `joran@xn--exmple-cua.org`), which needs no SMTPUTF8. An address with a local part beyond ASCII stays as
    /// it is: only a server with SMTPUTF8 takes it, and the send says so.
    static func forSubmission(_ draft: MessageDraft) -> MessageDraft {
        var out = draft
        out.allowsEightBit = false
        func ascii(_ list: [MailAddress]) -> [MailAddress] { list.map { asciiDomain($0) } }
        out.from = asciiDomain(draft.from)
        out.to = ascii(draft.to)
        out.cc = ascii(draft.cc)
        out.bcc = ascii(draft.bcc)
        if draft.messageIDDomain == domain(of: draft.from.email) { out.messageIDDomain = domain(of: out.from.email) }
        return out
    }

    /// `address` with its domain's A-label when its local part is ASCII and its domain is not (and is a host name);
    /// else as it is.
    static func asciiDomain(_ address: MailAddress) -> MailAddress {
        MailAddress(name: address.name, email: asciiDomain(address.email))
    }

    /// `email` with its domain's A-label when its local part is ASCII and its domain is not (and is a host name);
    /// else as it is.
    static func asciiDomain(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@") else { return email }
        let local = email[..<at], domain = email[email.index(after: at)...]
        guard local.utf8.allSatisfy({ $0 < 0x80 }), !domain.utf8.allSatisfy({ $0 < 0x80 }),
              let ascii = try? AccountDiscovery.asciiDomain(String(domain)) else { return email }
        return local + "@" + ascii
    }

    /// The domain of `email`, for the Message-ID (as `MessageDraft` takes it by default).
    private static func domain(of email: String) -> String {
        String(email.split(separator: "@").last ?? "localhost")
    }
}
