import SecureTransport

extension SMTPClientError {
    /// The SMTP error for a failure of the connection under the protocol.
    init(_ error: TransportError) {
        switch error {
        case .connectFailed(let host, let port, let reason): self = .connectFailed(host: host, port: port, reason: reason)
        case .certificateRejected(let host, let reason): self = .certificateRejected(host: host, reason: reason)
        case .tlsFailed(let reason): self = .tlsFailed(reason: reason)
        case .connectionClosed(let text): self = .connectionLost(text)
        case .timeout(let seconds), .deadlinePassed(let seconds): self = .timeout(seconds: seconds)
        }
    }
}
