import DomainNames

extension EmailAddress {
    /// The address as a person reads it: an internationalised domain's A-labels (`user@xn--bcher-kva.example`) as their
    /// U-labels (`user@bücher.example`) where IDNA's display rules allow (``DomainNames``' `IDNA`: decodes cleanly,
    /// re-encodes the same, no control, invisible or bidi character, scripts mixed only as browsers allow, no label of
    /// Latin lookalikes only); any other label as given. For text shown to a person (terminal output, `mailstore log`'s
    /// summaries, a notification's title); JSON fields and what is stored keep the address as the mail wrote it.
    public var readable: EmailAddress {
        let shown = IDNA.unicodeEmail(email)
        return shown == email ? self : EmailAddress(name: name, email: shown)
    }
}
