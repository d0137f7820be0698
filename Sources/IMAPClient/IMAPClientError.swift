import SecureTransport

/// Why an IMAP connection or command failed, and what to do about it.
///
/// No case ever holds a password or token: commands are named, never quoted with their arguments.
public enum IMAPClientError: Error, CustomStringConvertible, Equatable {
    /// No TCP connection could be made (name not resolved, refused, unreachable, timed out).
    case connectFailed(host: String, port: UInt16, reason: String)
    /// The server's certificate is not trusted or does not name the host; `reason` is OpenSSL's
    /// verification error.
    case certificateRejected(host: String, reason: String)
    /// The TLS handshake or a TLS record failed (including a server that offers less than TLS 1.2),
    /// or the TLS setup (such as the CA file) could not be loaded.
    case tlsFailed(reason: String)
    /// STARTTLS was asked for and the server does not offer it.
    case startTLSUnavailable(host: String)
    /// Credentials were about to be sent over an unencrypted connection; nothing was sent.
    case insecureAuthentication
    /// The server does not offer the authentication mechanism (or it does not fit the credential).
    case mechanismUnavailable(String)
    /// The server rejected the credentials; the text is the server's.
    case authenticationFailed(String)
    /// The server answered NO or BAD to a command (named without its arguments).
    case commandFailed(command: String, status: String, text: String)
    /// The server sent something this client cannot read or did not expect; the connection is unusable.
    case protocolError(String)
    /// The connection was closed (by the server, with its BYE text when it sent one, or by `logout()`).
    case connectionClosed(String)
    /// The server did not answer within the time allowed; the connection is unusable.
    case timeout(seconds: Double)
    /// A command (or the connection's opening) did not complete within its overall deadline
    /// (``ServerEndpoint/commandTimeout``), however steadily bytes trickled in; the connection is unusable.
    case deadlinePassed(command: String, seconds: Double)
    /// The server sent more during one command than ``CommandLimits`` allows (`limit` says which
    /// bound, e.g. "10000000 untagged responses"); the connection was dropped, nothing more is read.
    case responseLimitExceeded(command: String, limit: String)

    /// A sentence saying what failed and what to do.
    public var description: String {
        switch self {
        case .connectFailed(let host, let port, let reason):
            return TransportError.connectFailed(host: host, port: port, reason: reason).description
        case .certificateRejected(let host, let reason):
            return TransportError.certificateRejected(host: host, reason: reason).description
        case .tlsFailed(let reason):
            return TransportError.tlsFailed(reason: reason).description
        case .startTLSUnavailable:
            return "Secure connection failed: the server does not offer STARTTLS; refusing to continue without TLS"
        case .insecureAuthentication:
            return "refusing to send credentials over an unencrypted connection: use TLS or STARTTLS"
        case .mechanismUnavailable(let mechanism):
            return "authentication mechanism unavailable: \(mechanism)"
        case .authenticationFailed(let text):
            return "authentication failed: \(text); check the user name and the password or token"
        case .commandFailed(let command, let status, let text):
            return "IMAP \(command) failed (\(status)): \(text)"
        case .protocolError(let what):
            return "IMAP protocol error: \(what); the connection was dropped, reconnect to retry"
        case .connectionClosed(let text):
            return "IMAP connection closed: \(text); reconnect to retry"
        case .timeout(let seconds):
            return "the IMAP server did not answer within \(TransportError.format(seconds)) seconds; the connection was dropped, reconnect to retry"
        case .deadlinePassed(let command, let seconds):
            return "IMAP \(command) did not complete within its deadline of \(TransportError.format(seconds)) seconds "
                + "(the server stalls or trickles its answer); the connection was dropped, reconnect to retry "
                + "or raise --timeout"
        case .responseLimitExceeded(let command, let limit):
            return "the IMAP server sent more than \(limit) during \(command), beyond what any mailbox needs "
                + "(a broken or hostile server); the connection was dropped"
        }
    }
}
