/// How a protocol client logs in (IMAP `AUTHENTICATE`/`LOGIN`, SMTP `AUTH`).
public enum AuthMechanism: String, Sendable, CaseIterable {
    /// SASL PLAIN (RFC 4616) with the credentials as initial response.
    case plain
    /// IMAP: the `LOGIN` command (refused when the server advertises LOGINDISABLED); SMTP:
    /// `AUTH LOGIN`, the user name and the password each answering the server's challenge.
    case login
    /// SASL XOAUTH2 with an OAuth 2.0 access token (Gmail, Outlook).
    case xoauth2

    /// The SASL mechanism name as servers announce it: `PLAIN`, `LOGIN`, `XOAUTH2`.
    public var saslName: String { rawValue.uppercased() }
}
