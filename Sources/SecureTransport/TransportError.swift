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
            return "connection closed: \(text); reconnect to retry"
        case .timeout(let seconds):
            return "no progress within \(TransportError.format(seconds)) seconds; reconnect to retry"
        case .deadlinePassed(let seconds):
            return "the exchange did not finish within its deadline of \(TransportError.format(seconds)) seconds "
                + "(a stalled or trickling peer); reconnect to retry"
        }
    }

    /// Whether trying again later may help: the network or the peer failed, not the TLS setup or
    /// the certificate (which need a change first).
    public var isRetryable: Bool {
        switch self {
        case .connectFailed, .connectionClosed, .timeout, .deadlinePassed: return true
        case .certificateRejected, .tlsFailed: return false
        }
    }

    /// `seconds` without a fractional part when it has none ("30", "0.5").
    public static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
