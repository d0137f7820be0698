/// Why a connection could not be made, secured, read or written.
///
/// The protocol clients carry these in their own errors (`IMAPClientError.transport`,
/// `SMTPClientError.transport`); no case ever holds application data, so no password or token can
/// end up in one.
public enum TransportError: Error, CustomStringConvertible, Equatable {
    /// No TCP connection could be made (name not resolved, refused, unreachable, timed out).
    case connectFailed(host: String, port: UInt16, reason: String)
    /// The server's certificate is not trusted or does not name the host; `reason` is OpenSSL's
    /// verification error with what to do (the names the certificate has, whether a CA file was given).
    case certificateRejected(host: String, reason: String)
    /// The TLS handshake or a TLS record failed (including a server that offers less than TLS 1.2),
    /// or the TLS setup (such as the CA file) could not be loaded.
    case tlsFailed(reason: String)
    /// The connection was closed by the peer, failed, or was closed locally before the call.
    case connectionClosed(String)
    /// A write could not go on within the time allowed, or the TLS handshake did not finish in it.
    case timeout(seconds: Double)
    /// The server sent no greeting within `seconds` on a connection still in plain text (STARTTLS asked for):
    /// likely an implicit-TLS port (993, 465), whose server waits for the client's TLS hello.
    case noGreeting(seconds: Double)
    /// The whole exchange (a command, a batch) did not finish by the deadline set with
    /// ``SecureConnection/setDeadline(secondsFromNow:)``, however steadily bytes trickled in.
    case deadlinePassed(seconds: Double)

    /// A sentence saying what failed and what to do.
    public var description: String {
        switch self {
        case .connectFailed(let host, let port, let reason):
            return "cannot connect to \(host):\(port): \(reason); check the host name, the port and the network"
        case .certificateRejected(let host, let reason):
            return "the TLS certificate of \(host) was rejected: \(reason)"
        case .tlsFailed(let reason):
            return "Secure connection failed: \(reason)"
        case .connectionClosed(let text):
            // Without the text's own full stop (a server's BYE text ends with one: "... shutting down.; reconnect").
            var trimmed = Substring(text)
            while let last = trimmed.last, last == "." || last.isWhitespace { trimmed.removeLast() }
            return "connection closed: \(trimmed); reconnect to retry"
        case .timeout(let seconds):
            return "no progress within \(TransportError.format(seconds)) seconds; reconnect to retry"
        case .noGreeting(let seconds):
            return "the server sent no greeting within \(TransportError.format(seconds)) seconds: is this an implicit-TLS port "
                + "(IMAP 993, SMTP 465), which waits for TLS first? Try --security tls (--smtp-security tls for SMTP), or the "
                + "STARTTLS port (IMAP 143, SMTP 587)"
        case .deadlinePassed(let seconds):
            return "the exchange did not finish within its deadline of \(TransportError.format(seconds)) seconds "
                + "(a stalled or trickling peer); reconnect to retry"
        }
    }

    /// Whether trying again later may help: the network or the peer failed, not the TLS setup or
    /// the certificate (which need a change first).
    public var isRetryable: Bool {
        switch self {
        case .connectFailed, .connectionClosed, .timeout, .deadlinePassed, .noGreeting: return true
        case .certificateRejected, .tlsFailed: return false
        }
    }

    /// A failed TLS handshake's OpenSSL errors with the likely mistake named: a server answering in plain text
    /// (`wrong version number`: a STARTTLS or plain port given for implicit TLS), or one offering only TLS older
    /// than 1.2 (`unsupported protocol`, `alert protocol version`), which mailstore refuses.
    package static func handshakeFailure(_ openSSL: String) -> TransportError {
        let text = openSSL.lowercased()
        if ["wrong version number", "packet length too long", "http request", "unknown protocol"].contains(where: { text.contains($0) }) {
            return .tlsFailed(reason: "the server did not answer in TLS (\(openSSL)): is this a STARTTLS or plain-text port "
                              + "(IMAP 143, SMTP 587)? Try --security starttls (--smtp-security starttls for SMTP), or the "
                              + "implicit-TLS port (IMAP 993, SMTP 465)")
        }
        if ["unsupported protocol", "alert protocol version", "no protocols available", "version too low"].contains(where: { text.contains($0) }) {
            return .tlsFailed(reason: "the server offers only TLS older than 1.2, which mailstore refuses as unsafe (\(openSSL)); "
                              + "ask the provider to enable TLS 1.2 or 1.3")
        }
        return .tlsFailed(reason: openSSL)
    }

    /// What a handshake the server ended without a word may mean.
    static let oldTLSHint = "a server offering only TLS older than 1.2, which mailstore refuses, does so: ask the provider for "
        + "TLS 1.2 or 1.3; else it refused this client"

    /// `seconds` without a fractional part when it has none ("30", "0.5").
    public static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
