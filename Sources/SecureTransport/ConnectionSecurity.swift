/// How the connection to a mail server (IMAP or SMTP) is protected.
package enum ConnectionSecurity: String, Sendable, CaseIterable {
    /// Implicit TLS from the first byte (IMAPS on 993, submissions on 465).
    case tls
    /// Plain TCP upgraded with the protocol's `STARTTLS` before anything secret is sent (IMAP on 143,
    /// submission on 587); the connection fails when the server does not offer it.
    case starttls
    /// No encryption. Only for tests that show credentials are then refused: the protocol
    /// clients never send them over it.
    case plain
}
