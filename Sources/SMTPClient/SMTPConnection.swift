import SecureTransport

/// A blocking connection to an SMTP submission server (RFC 6409): TLS, authentication and sending.
///
/// Every call sends one command (or the few one step needs) and returns when the server has
/// answered; each single read or write waits at most ``ServerEndpoint/timeoutSeconds``, each command
/// with its reply at most ``ServerEndpoint/commandTimeout`` (a message also one second per 256 KiB). Use a
/// connection from one thread at a time. After a protocol error, a timeout or a lost connection
/// every later call throws that same error: make a new connection. A refusal by the server
/// (``SMTPClientError/permanentFailure(stage:reply:)``, ``SMTPClientError/temporaryFailure(stage:reply:)``,
/// ``SMTPClientError/recipientsRefused(_:)``) leaves the connection usable for the next message.
///
/// ```swift
/// let smtp = try SMTPConnection.connect(ServerEndpoint(host: "smtp.example.com", port: 587, security: .starttls))
/// try smtp.authenticate(username: "alice@example.com", credential: .password(secret), mechanism: .plain)
/// try smtp.send(from: "alice@example.com", recipients: ["bob@example.com"], message: bytes)
/// smtp.quit()
/// ```
package final class SMTPConnection {
    /// Where the connection goes.
    let endpoint: ServerEndpoint
    /// The name given in `EHLO`.
    let clientName: String
    /// The TCP connection, encrypted or not.
    let transport: SecureConnection
    /// Reads the server's replies from the bytes received.
    var parser = SMTPReplyParser()
    /// Receives protocol lines (credentials and message content left out), when tracing.
    let trace: ((String) -> Void)?
    /// Splits received bytes into lines for `trace`.
    var incomingTrace = LineTracer(prefix: "S: ")
    /// The error that made the connection unusable; every later call throws it.
    var failure = FailureLatch<SMTPClientError>()

    /// The extensions the server announced in its last `EHLO` reply (after TLS, when TLS was started).
    package internal(set) var extensions = SMTPExtensions()
    /// The server's greeting (220).
    package internal(set) var greeting: SMTPReply?
    /// Whether ``authenticate(username:credential:mechanism:)`` succeeded.
    package internal(set) var isAuthenticated = false

    init(endpoint: ServerEndpoint, clientName: String, transport: SecureConnection, trace: ((String) -> Void)?) {
        self.endpoint = endpoint
        self.clientName = clientName
        self.transport = transport
        self.trace = trace
        transport.setDeadline(secondsFromNow: endpoint.commandTimeout)
    }

    deinit { transport.close() }

    /// Whether the connection is protected by TLS (implicit or after STARTTLS).
    package var isEncrypted: Bool { transport.isEncrypted }
}
