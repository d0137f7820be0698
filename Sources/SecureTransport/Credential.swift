/// The secret that proves who the user is. Never printed: errors and traces redact it.
package enum Credential: Sendable {
    /// A password (for PLAIN or LOGIN).
    case password(String)
    /// An OAuth 2.0 access token (for XOAUTH2).
    case oauth2Token(String)
}
