#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected non-blocking TCP socket whose reads and writes wait with `poll` and a timeout.
final class TCPSocket: ByteStream {
    /// The host it was connected to, for error messages.
    let host: String
    /// The port it was connected to, for error messages.
    let port: UInt16
    /// The file descriptor, -1 once closed.
    private(set) var fd: Int32

    private init(fd: Int32, host: String, port: UInt16) {
        self.fd = fd
        self.host = host
        self.port = port
    }

    deinit { close() }

    /// Connects to `host:port`, trying each address the name resolves to until one answers,
    /// all within `timeout` seconds (name resolution itself is not bounded by it).
    static func connect(host: String, port: UInt16, timeout: Double) throws(TransportError) -> TCPSocket {
        let deadline = Deadline(secondsFromNow: timeout)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = TCPSocket.streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .connectFailed(host: host, port: port, reason: "cannot resolve the host name (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(first) }
        var reason = "the host name has no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else {
                reason = TCPSocket.errorText(errno)
                continue
            }
            let candidate = TCPSocket(fd: fd, host: host, port: port)
            do throws(TransportError) {
                try candidate.configure()
                if try candidate.finishConnect(info.pointee.ai_addr, info.pointee.ai_addrlen, deadline: deadline) {
                    return candidate
                }
                reason = "no answer within \(timeout) seconds"
                break
            } catch {
                if case .connectFailed(_, _, let why) = error { reason = why } else { reason = error.description }
            }
        }
        throw .connectFailed(host: host, port: port, reason: reason)
    }

    var isEncrypted: Bool { false }

    func read(maxCount: Int, timeout: Double) throws(TransportError) -> [UInt8]? {
        try read(maxCount: maxCount, until: Deadline(secondsFromNow: timeout))
    }

    /// Up to `maxCount` bytes as soon as some are there; empty at the end of the stream; nil
    /// when nothing arrived before `deadline`.
    func read(maxCount: Int, until deadline: Deadline) throws(TransportError) -> [UInt8]? {
        while true {
            guard try wait(for: Int16(POLLIN), until: deadline) else { return nil }
            var failure: Int32 = 0
            let data = [UInt8](unsafeUninitializedCapacity: maxCount) { buffer, count in
                let n = recv(fd, buffer.baseAddress, maxCount, 0)
                if n < 0 { failure = errno }
                count = max(n, 0)
            }
            if failure == 0 { return data }
            if failure == EINTR || failure == EAGAIN || failure == EWOULDBLOCK { continue }
            throw .connectionClosed("reading from \(host):\(port) failed: \(TCPSocket.errorText(failure))")
        }
    }

    func write(_ bytes: [UInt8], timeout: Double) throws(TransportError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, TCPSocket.sendFlags) }
            if n >= 0 {
                offset += n
                continue
            }
            let e = errno
            if e == EINTR { continue }
            guard e == EAGAIN || e == EWOULDBLOCK else {
                throw .connectionClosed("writing to \(host):\(port) failed: \(TCPSocket.errorText(e))")
            }
            guard try wait(for: Int16(POLLOUT), until: Deadline(secondsFromNow: timeout)) else { throw .timeout(seconds: timeout) }
        }
    }

    func close() {
        guard fd >= 0 else { return }
        _ = systemClose(fd)
        fd = -1
    }

    /// Waits until the socket is ready for `events` (or has an error to report); false when the deadline passed.
    func wait(for events: Int16, until deadline: Deadline) throws(TransportError) -> Bool {
        guard fd >= 0 else { throw .connectionClosed("the connection to \(host):\(port) is closed") }
        while true {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&entry, 1, deadline.remainingMilliseconds)
            if n > 0 { return true }
            if n == 0 { return false }
            if errno != EINTR { throw .connectionClosed("waiting for \(host):\(port) failed: \(TCPSocket.errorText(errno))") }
        }
    }

    /// Makes the socket non-blocking, close-on-exec, without Nagle delays (and, on Darwin, without SIGPIPE), with TCP
    /// keepalive (``keepAliveIdleSeconds``, ``keepAliveIntervalSeconds``, ``keepAliveProbes``).
    private func configure() throws(TransportError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
            throw .connectFailed(host: host, port: port, reason: "cannot configure the socket: \(TCPSocket.errorText(errno))")
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // A peer gone silently (a NAT or load balancer that dropped the idle flow, a host powered off) is otherwise never
        // noticed by a connection that only waits (IDLE): the kernel probes it. Not fatal when refused: the watch's own
        // IDLE probe (SyncWatcher) still finds such a connection dead.
        _ = setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        var idle = TCPSocket.keepAliveIdleSeconds
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPALIVE, &idle, socklen_t(MemoryLayout<Int32>.size))
        #else
        var idle = TCPSocket.keepAliveIdleSeconds
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var interval = TCPSocket.keepAliveIntervalSeconds
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &interval, socklen_t(MemoryLayout<Int32>.size))
        var probes = TCPSocket.keepAliveProbes
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, &probes, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Seconds of silence on a connection before the kernel's first keepalive probe: 60, well under the idle timeouts
    /// of NATs and load balancers (AWS NAT gateway 350 s), so the probes also keep such a flow alive.
    static let keepAliveIdleSeconds: Int32 = 60
    /// Seconds between unanswered keepalive probes.
    static let keepAliveIntervalSeconds: Int32 = 15
    /// Unanswered probes after which the kernel drops the connection (reads fail): a dead peer is found within
    /// 60 + 4 x 15 = 120 s of silence.
    static let keepAliveProbes: Int32 = 4

    /// Connects to `address`; true once connected, false when the deadline passed first.
    private func finishConnect(_ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t,
                               deadline: Deadline) throws(TransportError) -> Bool {
        if systemConnect(fd, address, length) == 0 { return true }
        guard errno == EINPROGRESS || errno == EINTR else {
            throw .connectFailed(host: host, port: port, reason: TCPSocket.errorText(errno))
        }
        guard try wait(for: Int16(POLLOUT), until: deadline) else { return false }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else {
            throw .connectFailed(host: host, port: port, reason: TCPSocket.errorText(errno))
        }
        guard error == 0 else { throw .connectFailed(host: host, port: port, reason: TCPSocket.errorText(error)) }
        return true
    }

    /// The C library's text for an `errno` value.
    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif
}

private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemConnect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
