/// Why one step of account discovery found nothing usable (never fatal: the chain goes on).
public enum DiscoveryError: Error, Equatable, CustomStringConvertible {
    /// The autoconfig document is not valid XML or names no IMAP/SMTP server with TLS.
    case invalidAutoconfig
    /// The HTTP request failed or answered with an error status.
    case http(String)
    /// The step ran out of time.
    case timeout(Double)
    /// No DNS resolver is known (no /etc/resolv.conf nameserver, no MAILSTORE_DNS_SERVER).
    case noResolver
    /// The DNS query could not be made or answered.
    case dns(String)
    /// The autoconfig document names IMAP or SMTP servers, but only without TLS: a password would go in clear.
    case noEncryptedServer
    /// `MAILSTORE_DNS_SERVER` is malformed (the text says how); no other resolver is asked instead.
    case badResolver(String)

    public var description: String {
        switch self {
        case .invalidAutoconfig: "the autoconfig document is invalid or names no usable server"
        case .http(let why): "autoconfig request failed: \(why)"
        case .timeout(let s): "no answer within \(Int(s.rounded(.up))) s"
        case .noResolver: "no DNS resolver: set MAILSTORE_DNS_SERVER=ip:port"
        case .dns(let why): "DNS query failed: \(why)"
        case .noEncryptedServer:
            "the provider's autoconfig offers no encrypted connection (only plaintext, which would send the password in clear): "
                + "ask the provider for its TLS or STARTTLS settings and give them with --host"
        case .badResolver(let why): why
        }
    }
}
