/// How a protocol client logs in (IMAP `AUTHENTICATE`/`LOGIN`, SMTP `AUTH`).
package enum AuthMechanism: String, Sendable, CaseIterable {
    /// SASL PLAIN (RFC 4616) with the credentials as initial response.
    case plain
    /// IMAP: the `LOGIN` command (refused when the server advertises LOGINDISABLED); SMTP:
    /// `AUTH LOGIN`, the user name and the password each answering the server's challenge.
    case login
    /// SASL XOAUTH2 with an OAuth 2.0 access token (Gmail, Outlook).
    case xoauth2
    /// SASL OAUTHBEARER (RFC 7628) with an OAuth 2.0 access token.
    case oauthbearer

    /// Whether the mechanism carries an OAuth 2.0 access token rather than a password.
    package var isOAuth: Bool { self == .xoauth2 || self == .oauthbearer }

    /// The OAuth mechanism to use with a server announcing `offered` (names as announced, any case):
    /// OAUTHBEARER (the standard one) when offered, else XOAUTH2, else nil.
    package static func oauth(offered: some Sequence<String>) -> AuthMechanism? {
        let names = Set(offered.map { $0.uppercased() })
        if names.contains("OAUTHBEARER") { return .oauthbearer }
        if names.contains("XOAUTH2") { return .xoauth2 }
        return nil
    }

    /// The SASL mechanism name as servers announce it: `PLAIN`, `LOGIN`, `XOAUTH2`, `OAUTHBEARER`.
    package var saslName: String { rawValue.uppercased() }
}
