import COpenSSL

/// TLS (1.2 or newer) over a connected ``TCPSocket``, with OpenSSL.
///
/// OpenSSL never touches the socket: it reads and writes two memory BIOs, and this type moves
/// the bytes between them and the socket with ``TCPSocket``'s timed, SIGPIPE-free I/O.
final class TLSStream: ByteStream {
    /// Bytes of one socket read, and the most one `read` returns.
    static let chunkSize = 64 * 1024

    private let socket: TCPSocket
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    /// Bytes from the network for OpenSSL (owned by `ssl`).
    private let networkIn: OpaquePointer
    /// Bytes from OpenSSL for the network (owned by `ssl`).
    private let networkOut: OpaquePointer
    private var buffer = [UInt8](repeating: 0, count: TLSStream.chunkSize)
    private var isClosed = false

    /// How a driven OpenSSL operation ended.
    private enum Outcome {
        case done
        case timedOut
        case closed
    }

    /// Starts TLS on `socket` and completes the handshake, verifying that the server's
    /// certificate chains to the system trust store or to `caFile` and names `host`.
    static func handshake(over socket: TCPSocket, host: String, caFile: String?, systemTrust: SystemTrust = .current,
                          timeout: Double) throws(TransportError) -> TLSStream {
        let context = try makeContext(caFile: caFile, systemTrust: systemTrust)
        let stream: TLSStream
        do throws(TransportError) {
            stream = try TLSStream(socket: socket, context: context, host: host)
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        let outcome: Outcome
        do throws(TransportError) {
            outcome = try stream.drive(until: Deadline(secondsFromNow: timeout)) { SSL_do_handshake(stream.ssl) }
        } catch {
            let verification = SSL_get_verify_result(stream.ssl)
            if verification != Int(X509_V_OK) {
                throw .certificateRejected(host: host, reason: rejection(verification, of: stream.ssl, host: host, caFile: caFile))
            }
            if case .tlsFailed(let reason) = error { throw TransportError.handshakeFailure(reason) }
            // A reset before the handshake finished: what a server that speaks only old TLS may do (still retryable).
            if case .connectionClosed(let what) = error { throw TransportError.connectionClosed(what + " during the TLS handshake (" + TransportError.oldTLSHint + ")") }
            throw error
        }
        switch outcome {
        case .done: return stream
        case .timedOut: throw .timeout(seconds: timeout)
        case .closed: throw .tlsFailed(reason: "the server closed the connection during the TLS handshake (\(TransportError.oldTLSHint))")
        }
    }

    private init(socket: TCPSocket, context: OpaquePointer, host: String) throws(TransportError) {
        guard let ssl = SSL_new(context) else { throw .tlsFailed(reason: "cannot create a TLS session: \(TLSStream.openSSLErrors())") }
        guard let networkIn = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw .tlsFailed(reason: "cannot create a TLS buffer: \(TLSStream.openSSLErrors())")
        }
        guard let networkOut = BIO_new(BIO_s_mem()) else {
            BIO_free(networkIn)
            SSL_free(ssl)
            throw .tlsFailed(reason: "cannot create a TLS buffer: \(TLSStream.openSSLErrors())")
        }
        // An empty input buffer means "wait for more", not end of stream.
        _ = mailstore_bio_set_mem_eof_return(networkIn, -1)
        SSL_set_bio(ssl, networkIn, networkOut)
        SSL_set_connect_state(ssl)
        do throws(TransportError) {
            try TLSStream.expectServer(named: host, on: ssl)
        } catch {
            SSL_free(ssl)
            throw error
        }
        self.socket = socket
        self.context = context
        self.ssl = ssl
        self.networkIn = networkIn
        self.networkOut = networkOut
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    var isEncrypted: Bool { true }

    func read(maxCount: Int, timeout: Double) throws(TransportError) -> [UInt8]? {
        let wanted = min(maxCount, buffer.count)
        var count = 0
        let outcome = try drive(until: Deadline(secondsFromNow: timeout)) {
            buffer.withUnsafeMutableBytes { SSL_read_ex(ssl, $0.baseAddress, wanted, &count) }
        }
        switch outcome {
        case .done: return Array(buffer[0..<count])
        case .timedOut: return nil
        case .closed: return []
        }
    }

    func write(_ bytes: [UInt8], timeout: Double) throws(TransportError) {
        guard !bytes.isEmpty else { return }
        var written = 0
        let outcome = try drive(until: Deadline(secondsFromNow: timeout)) {
            bytes.withUnsafeBytes { SSL_write_ex(ssl, $0.baseAddress, $0.count, &written) }
        }
        switch outcome {
        case .done: return
        case .timedOut: throw .timeout(seconds: timeout)
        case .closed: throw .connectionClosed("the server ended the TLS session")
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        try? flush(until: Deadline(secondsFromNow: 1))
        ERR_clear_error()
        socket.close()
    }

    /// Runs `operation` (an `SSL_*` call returning 1 on success) until it succeeds, feeding
    /// OpenSSL from the socket when it wants input and sending whatever it produced.
    private func drive(until deadline: Deadline, _ operation: () -> Int32) throws(TransportError) -> Outcome {
        guard !isClosed else { throw .connectionClosed("the TLS session is closed") }
        while true {
            ERR_clear_error()
            let result = operation()
            let status = result == 1 ? SSL_ERROR_NONE : SSL_get_error(ssl, result)
            try flush(until: deadline)
            switch status {
            case SSL_ERROR_NONE:
                return .done
            case SSL_ERROR_WANT_READ:
                guard let data = try socket.read(maxCount: TLSStream.chunkSize, until: deadline) else { return .timedOut }
                if data.isEmpty { return .closed }
                let fed = data.withUnsafeBytes { BIO_write(networkIn, $0.baseAddress, Int32($0.count)) }
                guard fed == Int32(data.count) else {
                    throw .tlsFailed(reason: "cannot buffer received TLS data: \(TLSStream.openSSLErrors())")
                }
            case SSL_ERROR_WANT_WRITE:
                continue
            case SSL_ERROR_ZERO_RETURN:
                return .closed
            default:
                throw .tlsFailed(reason: TLSStream.openSSLErrors())
            }
        }
    }

    /// Sends every byte OpenSSL has produced.
    private func flush(until deadline: Deadline) throws(TransportError) {
        var chunk = [UInt8](repeating: 0, count: TLSStream.chunkSize)
        while BIO_ctrl_pending(networkOut) > 0 {
            let n = chunk.withUnsafeMutableBytes { BIO_read(networkOut, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { throw .tlsFailed(reason: "cannot take TLS data to send: \(TLSStream.openSSLErrors())") }
            try socket.write(Array(chunk[0..<Int(n)]), timeout: deadline.remainingSeconds)
        }
    }
}
