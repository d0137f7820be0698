/// How the connection to an IMAP server is protected.
public enum ConnectionSecurity: String, Sendable, CaseIterable {
    /// Implicit TLS from the first byte (IMAPS, usually port 993).
    case tls
    /// Plain IMAP upgraded with `STARTTLS` before anything else is sent (usually port 143);
    /// the connection fails when the server does not offer it.
    case starttls
    /// No encryption. Only for tests that show credentials are then refused:
    /// ``IMAPConnection/authenticate(username:credential:mechanism:)`` never sends them.
    case plain
}
