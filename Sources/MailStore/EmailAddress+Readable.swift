import EventModel
import MailParser

extension EmailAddress {
    /// The address as a person reads it: an internationalised domain's A-labels (`user@xn--bcher-kva.example`) as their
    /// U-labels (`user@bücher.example`) where IDNA's display rules allow (``MailParser``'s `IDNA`: decodes cleanly,
    /// re-encodes the same, no control, invisible or bidi character, no Latin mixed with Cyrillic or Greek); any other
    /// label as given. For terminal output; JSON output and what is stored keep the address as the mail wrote it.
    public var readable: EmailAddress {
        let shown = IDNA.unicodeEmail(email)
        return shown == email ? self : EmailAddress(name: name, email: shown)
    }
}
