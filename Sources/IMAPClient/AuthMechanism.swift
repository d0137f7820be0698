/// How ``IMAPConnection/authenticate(username:credential:mechanism:)`` logs in.
public enum AuthMechanism: String, Sendable, CaseIterable {
    /// `AUTHENTICATE PLAIN` (RFC 4616), with the initial response inline when SASL-IR is advertised.
    case plain
    /// The `LOGIN` command (refused by servers that advertise LOGINDISABLED).
    case login
    /// `AUTHENTICATE XOAUTH2` with an OAuth 2.0 access token (Gmail, Outlook).
    case xoauth2
}
