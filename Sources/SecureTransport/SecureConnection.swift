/// A blocking TCP connection that is encrypted from the start (implicit TLS) or upgraded in place
/// (STARTTLS), with a time limit on every wait.
///
/// TLS is 1.2 or newer, and the server's certificate must chain to the system trust store (or to
/// the extra CA file given) and name the host (a DNS name, or the IP address of an IP literal).
/// There is no way to turn verification off. Use a connection from one thread at a time.
///
/// ```swift
/// let connection = try SecureConnection.open(ServerEndpoint(host: "smtp.example.com", port: 587, security: .starttls))
/// try connection.write(Array("EHLO me\r\n".utf8))
/// // ... the server accepted STARTTLS:
/// try connection.startTLS()
/// ```
package final class SecureConnection {
    /// The host name or IP literal connected to; also the name the certificate must carry.
    package let host: String
    /// The TCP port connected to.
    package let port: UInt16
    /// The extra trusted CA certificate file (PEM), besides the system trust store.
    package let caFile: String?
    /// Where the system's trusted CAs are read from.
    package let systemTrust: SystemTrust
    /// Seconds each read or write (and the TLS handshake) may wait, unless the call says otherwise.
    package let timeoutSeconds: Double
    /// The TCP socket under everything.
    private let socket: TCPSocket
    /// The socket, or TLS over it.
    private var stream: any ByteStream
    /// The deadline bounding every wait until cleared: a whole command or batch, not one read.
    private var deadline: Deadline?
    /// The seconds `deadline` was set for (extensions included), for its error.
    private var deadlineSeconds: Double = 0
    /// The endpoint's ``ServerEndpoint/sessionDeadline``: no deadline set later goes past it.
    private let session: (deadline: Deadline, seconds: Double)?

    private init(socket: TCPSocket, caFile: String?, systemTrust: SystemTrust, timeoutSeconds: Double,
                 session: (deadline: Deadline, seconds: Double)?) {
        self.host = socket.host
        self.port = socket.port
        self.caFile = caFile
        self.systemTrust = systemTrust
        self.timeoutSeconds = timeoutSeconds
        self.socket = socket
        self.stream = socket
        self.session = session
        if let session {
            deadline = session.deadline
            deadlineSeconds = session.seconds
        }
    }

    deinit { stream.close() }

    /// Connects to the endpoint within its ``ServerEndpoint/timeoutSeconds`` and, for
    /// ``ConnectionSecurity/tls``, completes a verified TLS handshake before returning; for
    /// ``ConnectionSecurity/starttls`` the protocol upgrades later with ``startTLS()``.
    ///
    /// `trace` hears "connected to HOST:PORT (SECURITY)" and then "TLS established" after the handshake.
    package static func open(_ endpoint: ServerEndpoint, trace: ((String) -> Void)? = nil) throws(TransportError) -> SecureConnection {
        // The session's deadline, as whole seconds from now for its error; connecting waits no longer than it either.
        let session = endpoint.sessionDeadline.map { (deadline: $0, seconds: $0.remainingSeconds.rounded()) }
        if let session, session.deadline.hasPassed { throw .deadlinePassed(seconds: 0) }
        let socket = try TCPSocket.connect(host: endpoint.host, port: endpoint.port,
                                           timeout: min(endpoint.timeoutSeconds, session?.deadline.remainingSeconds ?? .infinity))
        trace?("connected to \(endpoint.host):\(endpoint.port) (\(endpoint.security.rawValue))")
        let connection = SecureConnection(socket: socket, caFile: endpoint.caFile, systemTrust: endpoint.systemTrust,
                                          timeoutSeconds: endpoint.timeoutSeconds, session: session)
        if endpoint.security == .tls {
            try connection.startTLS()
            trace?("TLS established")
        }
        return connection
    }

    /// Whether the bytes travel encrypted (implicit TLS, or after ``startTLS()``).
    package var isEncrypted: Bool { stream.isEncrypted }

    /// Runs a verified TLS handshake over the plain connection; afterwards every byte is encrypted.
    ///
    /// Call it right after the server accepted STARTTLS, with nothing of the plain session left
    /// unread. On failure the connection is closed: never go on in plaintext.
    package func startTLS() throws(TransportError) {
        guard !stream.isEncrypted else { throw .tlsFailed(reason: "the connection is already encrypted") }
        do throws(TransportError) {
            let wait = try boundedWait(timeoutSeconds)
            do throws(TransportError) {
                stream = try TLSStream.handshake(over: socket, host: host, caFile: caFile, systemTrust: systemTrust, timeout: wait)
            } catch .timeout(let seconds) {
                if let deadline, deadline.hasPassed { throw .deadlinePassed(seconds: deadlineSeconds) }
                throw .timeout(seconds: seconds)
            }
        } catch {
            close()
            throw error
        }
    }

    /// Bounds the total time of every read and write from now on to `seconds`, until
    /// ``clearDeadline()``: a peer that trickles a byte just before each read's timeout still
    /// cannot keep one exchange (a command, a batch) going longer. Once it has passed, reads and
    /// writes throw ``TransportError/deadlinePassed(seconds:)``. Never past the endpoint's
    /// ``ServerEndpoint/sessionDeadline``: when that comes first, it is the deadline.
    package func setDeadline(secondsFromNow seconds: Double) {
        deadline = Deadline(secondsFromNow: seconds)
        deadlineSeconds = max(0, seconds)
        keepWithinSession()
    }

    /// Moves the current deadline, if any, `seconds` later (e.g. for bytes that did arrive), never past the session's.
    package func extendDeadline(bySeconds seconds: Double) {
        guard let current = deadline, seconds > 0 else { return }
        deadline = current.extended(bySeconds: seconds)
        deadlineSeconds += seconds
        keepWithinSession()
    }

    /// Removes the deadline: each wait is bounded by its own timeout only (and by the session's deadline, if any).
    package func clearDeadline() {
        deadline = session?.deadline
        deadlineSeconds = session?.seconds ?? 0
    }

    /// The session's deadline in place of the current one when it comes first (its seconds those of the whole session).
    private func keepWithinSession() {
        guard let session, let current = deadline, session.deadline.instant < current.instant else { return }
        deadline = session.deadline
        deadlineSeconds = session.seconds
    }

    /// Up to `maxCount` bytes as soon as some are there; empty at the end of the stream; nil when
    /// nothing arrived within `timeoutSeconds` (default: ``timeoutSeconds``), the connection staying usable.
    /// Throws ``TransportError/deadlinePassed(seconds:)`` when the deadline set with
    /// ``setDeadline(secondsFromNow:)`` passes first.
    package func read(maxCount: Int, timeoutSeconds: Double? = nil) throws(TransportError) -> [UInt8]? {
        let wait = try boundedWait(timeoutSeconds ?? self.timeoutSeconds)
        let data = try stream.read(maxCount: maxCount, timeout: wait)
        if data == nil, let deadline, deadline.hasPassed { throw .deadlinePassed(seconds: deadlineSeconds) }
        return data
    }

    /// Sends all of `bytes`, each wait for the peer bounded by ``timeoutSeconds`` and all of them by
    /// the deadline, if one is set.
    package func write(_ bytes: [UInt8]) throws(TransportError) {
        do throws(TransportError) {
            try stream.write(bytes, timeout: try boundedWait(timeoutSeconds))
        } catch .timeout(let seconds) {
            if let deadline, deadline.hasPassed { throw .deadlinePassed(seconds: deadlineSeconds) }
            throw .timeout(seconds: seconds)
        }
    }

    /// `timeout`, shortened to what is left of the deadline; throws once the deadline has passed.
    private func boundedWait(_ timeout: Double) throws(TransportError) -> Double {
        guard let deadline else { return timeout }
        let left = deadline.remainingSeconds
        guard left > 0 else { throw .deadlinePassed(seconds: deadlineSeconds) }
        return min(timeout, left)
    }

    /// Ends the connection (a TLS close notify first, best effort) and releases it; later reads
    /// and writes throw ``TransportError/connectionClosed(_:)``. Closing twice does nothing.
    package func close() {
        stream.close()
    }
}
