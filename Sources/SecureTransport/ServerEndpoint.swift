/// Where a mail server (IMAP or SMTP) is and how to reach it.
public struct ServerEndpoint: Sendable {
    /// The host name or IP literal; also the name the server certificate must carry.
    public var host: String
    /// The TCP port.
    public var port: UInt16
    /// Implicit TLS, STARTTLS or (tests only) plain.
    public var security: ConnectionSecurity
    /// An extra trusted CA certificate file (PEM) for a server with a private or test CA;
    /// the system trust store is always used as well.
    public var caFile: String?
    /// Seconds allowed for connecting and for each single read or write.
    public var timeoutSeconds: Double
    /// Seconds one whole command (or the connection's opening) may take, however the bytes
    /// trickle in; nil: ``defaultCommandTimeoutFactor`` times ``timeoutSeconds``.
    public var commandTimeoutSeconds: Double?

    /// The overall deadline of a command when ``commandTimeoutSeconds`` is not set, in multiples of
    /// ``timeoutSeconds``.
    public static let defaultCommandTimeoutFactor = 10.0

    /// The seconds one command may take (IMAP adds an allowance for bytes received, see
    /// `CommandLimits.deadlineBytesPerSecond`).
    public var commandTimeout: Double {
        commandTimeoutSeconds ?? timeoutSeconds * ServerEndpoint.defaultCommandTimeoutFactor
    }

    /// An endpoint with the given parts; `timeoutSeconds` applies to connecting and to each read or
    /// write, `commandTimeoutSeconds` to each whole command (default: 10 times `timeoutSeconds`).
    public init(host: String, port: UInt16, security: ConnectionSecurity, caFile: String? = nil, timeoutSeconds: Double = 60,
                commandTimeoutSeconds: Double? = nil) {
        self.host = host
        self.port = port
        self.security = security
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
        self.commandTimeoutSeconds = commandTimeoutSeconds
    }
}
