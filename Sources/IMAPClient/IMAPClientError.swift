import SecureTransport

/// Why an IMAP connection or command failed, and what to do about it.
///
/// No case ever holds a password or token: commands are named, never quoted with their arguments.
public enum IMAPClientError: Error, CustomStringConvertible, Equatable {
    /// The connection under the protocol failed: not made, certificate rejected, TLS failed, closed
    /// (by the server, with its BYE text when it sent one, or by `logout()`), or no answer within
    /// the time allowed; the connection is unusable.
    case transport(TransportError)
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
    /// The server answered NO with a response code saying the failure is temporary (RFC 5530: `UNAVAILABLE`, a
    /// subsystem down; `INUSE`, the mailbox or message in use by another): the same command may succeed later.
    case temporarilyUnavailable(command: String, code: String, text: String)
    /// The server sent something this client cannot read or did not expect; the connection is unusable.
    case protocolError(String)
    /// A command (or the connection's opening) did not complete within its overall deadline
    /// (``ServerEndpoint/commandTimeout``), however steadily bytes trickled in; the connection is unusable.
    case deadlinePassed(command: String, seconds: Double)
    /// The server sent more during one command than ``CommandLimits`` allows (`limit` says which
    /// bound, e.g. "10000000 untagged responses"); the connection was dropped, nothing more is read.
    case responseLimitExceeded(command: String, limit: String)

    /// A sentence saying what failed and what to do.
    public var description: String {
        switch self {
        case .transport(let error):
            return "IMAP: \(error)"
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
        case .temporarilyUnavailable(let command, let code, let text):
            return "IMAP \(command) failed for now ([\(code)] \(text)): the server says to try again later"
        case .protocolError(let what):
            return "IMAP protocol error: \(what); the connection was dropped, reconnect to retry"
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

extension IMAPClientError {
    /// The IMAP error for a failure of the connection under the protocol during `command`
    /// (a passed deadline names the command).
    init(_ error: TransportError, command: String) {
        if case .deadlinePassed(let seconds) = error {
            self = .deadlinePassed(command: command, seconds: seconds)
        } else {
            self = .transport(error)
        }
    }

    /// Whether trying again later may help: a lost, refused or stalled connection.
    public var isRetryable: Bool {
        switch self {
        case .transport(let error): return error.isRetryable
        case .deadlinePassed, .temporarilyUnavailable: return true
        default: return false
        }
    }

    /// Whether the server stopped answering: a read waited out its timeout, or a command its deadline (the
    /// connection's other waits on that server would most likely last as long).
    package var isUnanswered: Bool {
        switch self {
        case .transport(.timeout), .transport(.deadlinePassed), .deadlinePassed: true
        default: false
        }
    }
}
