/// Where an IMAP server is and how to reach it.
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

    /// An endpoint with the given parts; `timeoutSeconds` applies to connecting and to each read or write.
    public init(host: String, port: UInt16, security: ConnectionSecurity, caFile: String? = nil, timeoutSeconds: Double = 60) {
        self.host = host
        self.port = port
        self.security = security
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
    }
}
