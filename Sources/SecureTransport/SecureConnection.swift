/// A blocking TCP connection that is encrypted from the start (implicit TLS) or upgraded in place
/// (STARTTLS), with a time limit on every wait.
///
/// TLS is 1.2 or newer, and the server's certificate must chain to the system trust store (or to
/// the extra CA file given) and name the host (a DNS name, or the IP address of an IP literal).
/// There is no way to turn verification off. Use a connection from one thread at a time.
///
/// ```swift
/// let connection = try SecureConnection.open(host: "smtp.example.com", port: 587, security: .plain,
///                                            caFile: nil, timeoutSeconds: 30)
/// try connection.write(Array("EHLO me\r\n".utf8))
/// // ... the server accepted STARTTLS:
/// try connection.startTLS()
/// ```
public final class SecureConnection {
    /// The host name or IP literal connected to; also the name the certificate must carry.
    public let host: String
    /// The TCP port connected to.
    public let port: UInt16
    /// The extra trusted CA certificate file (PEM), besides the system trust store.
    public let caFile: String?
    /// Seconds each read or write (and the TLS handshake) may wait, unless the call says otherwise.
    public let timeoutSeconds: Double
    /// The TCP socket under everything.
    private let socket: TCPSocket
    /// The socket, or TLS over it.
    private var stream: any ByteStream

    private init(socket: TCPSocket, caFile: String?, timeoutSeconds: Double) {
        self.host = socket.host
        self.port = socket.port
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
        self.socket = socket
        self.stream = socket
    }

    deinit { stream.close() }

    /// Connects to `host:port` within `timeoutSeconds` and, for ``TransportSecurity/tls``,
    /// completes a verified TLS handshake before returning.
    ///
    /// `trace` hears "connected to HOST:PORT (MODE)" — `mode` is the protocol's name for its
    /// security, the transport's by default — and then "TLS established" after the handshake.
    public static func open(host: String, port: UInt16, security: TransportSecurity, caFile: String?,
                            timeoutSeconds: Double, trace: ((String) -> Void)? = nil,
                            mode: String? = nil) throws(TransportError) -> SecureConnection {
        let socket = try TCPSocket.connect(host: host, port: port, timeout: timeoutSeconds)
        trace?("connected to \(host):\(port) (\(mode ?? security.rawValue))")
        let connection = SecureConnection(socket: socket, caFile: caFile, timeoutSeconds: timeoutSeconds)
        if security == .tls {
            try connection.startTLS()
            trace?("TLS established")
        }
        return connection
    }

    /// Whether the bytes travel encrypted (implicit TLS, or after ``startTLS()``).
    public var isEncrypted: Bool { stream.isEncrypted }

    /// Runs a verified TLS handshake over the plain connection; afterwards every byte is encrypted.
    ///
    /// Call it right after the server accepted STARTTLS, with nothing of the plain session left
    /// unread. On failure the connection is closed: never go on in plaintext.
    public func startTLS() throws(TransportError) {
        guard !stream.isEncrypted else { throw .tlsFailed(reason: "the connection is already encrypted") }
        do throws(TransportError) {
            stream = try TLSStream.handshake(over: socket, host: host, caFile: caFile, timeout: timeoutSeconds)
        } catch {
            close()
            throw error
        }
    }

    /// Up to `maxCount` bytes as soon as some are there; empty at the end of the stream; nil when
    /// nothing arrived within `timeoutSeconds` (default: ``timeoutSeconds``), the connection staying usable.
    public func read(maxCount: Int, timeoutSeconds: Double? = nil) throws(TransportError) -> [UInt8]? {
        try stream.read(maxCount: maxCount, timeout: timeoutSeconds ?? self.timeoutSeconds)
    }

    /// Sends all of `bytes`, each wait for the peer bounded by ``timeoutSeconds``.
    public func write(_ bytes: [UInt8]) throws(TransportError) {
        try stream.write(bytes, timeout: timeoutSeconds)
    }

    /// Ends the connection (a TLS close notify first, best effort) and releases it; later reads
    /// and writes throw ``TransportError/connectionClosed(_:)``. Closing twice does nothing.
    public func close() {
        stream.close()
    }
}
