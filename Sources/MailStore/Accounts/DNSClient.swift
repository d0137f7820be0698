import Foundation
#if canImport(Glibc)
import Glibc
import SecureTransport
#endif
import SyncCore

/// One DNS query to an IPv4 resolver, within `timeout` seconds in all: over UDP (a response of at most
/// `maxUDPBytes` from that address and port, with the query's id), and when that answer is truncated (TC set: it
/// did not fit a datagram) again over TCP as RFC 7766 has it (each message behind a 2-byte length), within what is
/// left of the same time, for an answer of at most `maxTCPBytes`. A truncated answer is never used as if complete:
/// when the TCP query fails the query fails.
enum DNSClient {
    /// The largest UDP answer read: 4 KiB (a resolver sends at most 512 bytes to a query without EDNS).
    static let maxUDPBytes = 4096
    /// The largest TCP answer read: 64 KiB, what its 2-byte length can say.
    static let maxTCPBytes = 65_535

    static func query(server: (String, UInt16), name: String, type: DNSMessage.RecordType,
                      timeout: Double) throws(DiscoveryError) -> (response: [UInt8], id: UInt16) {
        let id = UInt16.random(in: 0...UInt16.max)
        guard let packet = DNSMessage.query(id: id, name: name, type: type) else { throw .dns("cannot ask for \"\(name)\"") }
        let deadline = Deadline(secondsFromNow: timeout)  // monotonic: a wall clock step neither stretches nor ends it
        let udp = try exchangeUDP(server: server, packet: packet, id: id, deadline: deadline, timeout: timeout)
        guard DNSMessage.isTruncated(udp) else { return (udp, id) }
        do {
            return (try exchangeTCP(server: server, packet: packet, id: id, deadline: deadline, timeout: timeout), id)
        } catch {
            throw .dns("the answer for \(name) did not fit a UDP datagram and asking again over TCP failed: \(error)")
        }
    }

    /// The resolver's address as a `sockaddr_in`.
    private static func address(_ server: (String, UInt16)) throws(DiscoveryError) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = server.1.bigEndian
        guard inet_pton(AF_INET, server.0, &addr.sin_addr) == 1 else { throw .dns("\(server.0) is not an IPv4 address") }
        return addr
    }

    /// `connect(2)` of `fd` to `addr`; 0 or -1 with errno set.
    private static func connectSocket(_ fd: Int32, _ addr: sockaddr_in) -> Int32 {
        withUnsafePointer(to: addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Waits until `fd` has `events` or the deadline passes (then `.timeout(timeout)`).
    private static func wait(_ fd: Int32, _ events: Int32, deadline: Deadline, timeout: Double) throws(DiscoveryError) {
        while true {
            let left = deadline.remainingSeconds
            guard left > 0 else { throw .timeout(timeout) }
            var pfd = pollfd(fd: fd, events: Int16(events), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(left * 1000, 10_000).rounded(.up)))
            if ready < 0 && errno != EINTR { throw .dns("poll: errno \(errno)") }
            if ready > 0 { return }
        }
    }

    private static func exchangeUDP(server: (String, UInt16), packet: [UInt8], id: UInt16, deadline: Deadline,
                                    timeout: Double) throws(DiscoveryError) -> [UInt8] {
        let addr = try address(server)
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw .dns("socket: errno \(errno)") }
        defer { close(fd) }
        // A connected socket: only the resolver's datagrams arrive, and a closed port is reported (ECONNREFUSED).
        guard connectSocket(fd, addr) == 0 else { throw .dns("connect: errno \(errno)") }
        guard send(fd, packet, packet.count, 0) == packet.count else { throw .dns("send: errno \(errno)") }
        var buffer = [UInt8](repeating: 0, count: maxUDPBytes)
        while true {
            try wait(fd, Int32(POLLIN), deadline: deadline, timeout: timeout)
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .dns(errno == ECONNREFUSED ? "\(server.0):\(server.1) refused the query" : "receive: errno \(errno)")
            }
            guard n >= 12, UInt16(buffer[0]) << 8 | UInt16(buffer[1]) == id else { continue }
            return Array(buffer[0..<n])
        }
    }

    /// The query over TCP (RFC 7766): the message behind its 2-byte length, the answer read the same way, at most
    /// `maxTCPBytes`, all before `deadline`.
    private static func exchangeTCP(server: (String, UInt16), packet: [UInt8], id: UInt16, deadline: Deadline,
                                    timeout: Double) throws(DiscoveryError) -> [UInt8] {
        let addr = try address(server)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .dns("socket: errno \(errno)") }
        defer { close(fd) }
        if connectSocket(fd, addr) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else { throw .dns("TCP connect to \(server.0):\(server.1): errno \(errno)") }
            try wait(fd, Int32(POLLOUT), deadline: deadline, timeout: timeout)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
                throw .dns(error == ECONNREFUSED ? "\(server.0):\(server.1) refused the TCP connection" : "TCP connect: errno \(error)")
            }
        }
        let message = [UInt8(packet.count >> 8), UInt8(packet.count & 0xff)] + packet
        var sent = 0
        while sent < message.count {
            try wait(fd, Int32(POLLOUT), deadline: deadline, timeout: timeout)
            let n = message[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .dns("TCP send: errno \(errno)")
            }
            sent += n
        }
        func read(_ count: Int) throws(DiscoveryError) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: count)
            var have = 0
            while have < count {
                try wait(fd, Int32(POLLIN), deadline: deadline, timeout: timeout)
                let n = out[have...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw .dns("TCP receive: errno \(errno)")
                }
                guard n > 0 else { throw .dns("the resolver closed the TCP connection after \(have) of \(count) bytes") }
                have += n
            }
            return out
        }
        let prefix = try read(2)
        let length = Int(prefix[0]) << 8 | Int(prefix[1])
        guard length >= 12, length <= maxTCPBytes else { throw .dns("a TCP answer of \(length) bytes") }
        let answer = try read(length)
        guard UInt16(answer[0]) << 8 | UInt16(answer[1]) == id else { throw .dns("the TCP answer is another query's") }
        guard !DNSMessage.isTruncated(answer) else { throw .dns("the TCP answer is truncated too") }
        return answer
    }
}
