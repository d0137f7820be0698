/// A mail service that cannot be used over plain IMAP/SMTP, and what the user can do instead.
package struct UnsupportedProvider: Sendable, Equatable {
    /// The registry id, e.g. `protonmail`.
    package var id: String
    /// Its mail domains.
    package var domains: [String]
    /// Why it cannot be added, said to the user.
    package var reason: String

    /// ProtonMail encrypts end to end; only its Bridge app speaks IMAP (E-22).
    package static let protonMail = UnsupportedProvider(
        id: "protonmail", domains: ["protonmail.com", "protonmail.ch", "proton.me", "pm.me"],
        reason: "ProtonMail requires their Bridge app; run Proton Mail Bridge and add the account with the host, port "
            + "and password it shows (--host 127.0.0.1 --port 1143 --security starttls)")
}
