/// Where an SMTP submission server is and how to reach it.
public struct SMTPEndpoint: Sendable {
    /// The host name or IP literal; also the name the server certificate must carry.
    public var host: String
    /// The TCP port (465 for ``SMTPSecurity/tls``, 587 for ``SMTPSecurity/starttls``).
    public var port: UInt16
    /// Implicit TLS, STARTTLS or (tests only) plain.
    public var security: SMTPSecurity
    /// An extra trusted CA certificate file (PEM) for a server with a private or test CA;
    /// the system trust store is always used as well.
    public var caFile: String?
    /// Seconds allowed for connecting and for each single read or write.
    public var timeoutSeconds: Double
    /// The name this client gives in `EHLO`; the default address literal tells the server nothing
    /// about the machine.
    public var clientName: String

    /// An endpoint with the given parts; `timeoutSeconds` applies to connecting and to each read or write.
    public init(host: String, port: UInt16, security: SMTPSecurity, caFile: String? = nil,
                timeoutSeconds: Double = 60, clientName: String = "[127.0.0.1]") {
        self.host = host
        self.port = port
        self.security = security
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
        self.clientName = clientName
    }
}
