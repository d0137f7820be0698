/// How ``SMTPConnection/authenticate(username:credential:mechanism:)`` logs in (SMTP AUTH, RFC 4954).
public enum SMTPAuthMechanism: String, Sendable, CaseIterable {
    /// `AUTH PLAIN` (RFC 4616) with the credentials as initial response.
    case plain = "PLAIN"
    /// `AUTH LOGIN`: the user name and the password, each answering the server's challenge.
    case login = "LOGIN"
    /// `AUTH XOAUTH2` with an OAuth 2.0 access token (Gmail, Outlook).
    case xoauth2 = "XOAUTH2"
}
