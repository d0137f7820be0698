/// How a ``SecureConnection`` starts.
public enum TransportSecurity: String, Sendable, CaseIterable {
    /// TLS from the first byte (implicit TLS: IMAPS on 993, SMTPS on 465).
    case tls
    /// Plain TCP, to be upgraded with ``SecureConnection/startTLS()`` once the protocol's
    /// STARTTLS command succeeded (or, in tests only, left plain).
    case plain
}
