import SecureTransport

extension IMAPClientError {
    /// The IMAP error for a failure of the connection under the protocol during `command`
    /// (named in deadline errors).
    init(_ error: TransportError, command: String = "connection setup") {
        switch error {
        case .connectFailed(let host, let port, let reason): self = .connectFailed(host: host, port: port, reason: reason)
        case .certificateRejected(let host, let reason): self = .certificateRejected(host: host, reason: reason)
        case .tlsFailed(let reason): self = .tlsFailed(reason: reason)
        case .connectionClosed(let text): self = .connectionClosed(text)
        case .timeout(let seconds): self = .timeout(seconds: seconds)
        case .deadlinePassed(let seconds): self = .deadlinePassed(command: command, seconds: seconds)
        }
    }
}
