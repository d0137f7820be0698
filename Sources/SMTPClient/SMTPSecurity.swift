/// How the connection to an SMTP submission server is protected.
public enum SMTPSecurity: String, Sendable, CaseIterable {
    /// Implicit TLS from the first byte (submissions, usually port 465).
    case tls
    /// Plain SMTP upgraded with `STARTTLS` right after the first `EHLO` (submission, usually
    /// port 587); the connection fails when the server does not offer it or it fails.
    case starttls
    /// No encryption. Only for tests that show credentials are then refused:
    /// ``SMTPConnection/authenticate(username:credential:mechanism:)`` never sends them.
    case plain
}
