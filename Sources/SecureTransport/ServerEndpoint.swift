/// Where a mail server (IMAP or SMTP) is and how to reach it.
package struct ServerEndpoint: Sendable {
    /// The host name or IP literal; also the name the server certificate must carry.
    package var host: String
    /// The TCP port.
    package var port: UInt16
    /// Implicit TLS, STARTTLS or (tests only) plain.
    package var security: ConnectionSecurity
    /// An extra trusted CA certificate file (PEM) for a server with a private or test CA;
    /// the system trust store is always used as well.
    package var caFile: String?
    /// Where the system's trusted CAs are read from (the process's own by default; tests name a directory).
    package var systemTrust = SystemTrust.current
    /// Seconds allowed for connecting and for each single read or write.
    package var timeoutSeconds: Double
    /// Seconds one whole command (or the connection's opening) may take, however the bytes
    /// trickle in; nil: ``defaultCommandTimeoutFactor`` times ``timeoutSeconds``.
    package var commandTimeoutSeconds: Double?
    /// The instant no wait of the connection may pass, whatever deadline a command sets: bounds a whole session (an
    /// outbox attempt: connecting, TLS, the greeting, AUTH and the message), however steadily a server trickles bytes.
    /// Past it every read and write throws ``TransportError/deadlinePassed(seconds:)``. Nil: no such bound.
    package var sessionDeadline: Deadline?

    /// The overall deadline of a command when ``commandTimeoutSeconds`` is not set, in multiples of
    /// ``timeoutSeconds``.
    package static let defaultCommandTimeoutFactor = 10.0

    /// The seconds one command may take (IMAP adds an allowance for bytes received, see
    /// `CommandLimits.deadlineBytesPerSecond`).
    package var commandTimeout: Double {
        commandTimeoutSeconds ?? timeoutSeconds * ServerEndpoint.defaultCommandTimeoutFactor
    }

    /// An endpoint with the given parts; `timeoutSeconds` applies to connecting and to each read or
    /// write, `commandTimeoutSeconds` to each whole command (default: 10 times `timeoutSeconds`).
    package init(host: String, port: UInt16, security: ConnectionSecurity, caFile: String? = nil, timeoutSeconds: Double = 60,
                commandTimeoutSeconds: Double? = nil) {
        self.host = host
        self.port = port
        self.security = security
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
        self.commandTimeoutSeconds = commandTimeoutSeconds
    }
}
