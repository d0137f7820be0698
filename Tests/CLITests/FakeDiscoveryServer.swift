import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A DNS resolver (UDP and TCP on one loopback port) and an autoconfig HTTP server (another port) in the test
/// process, for the discovery cases the shared test servers do not serve: an SRV answer too big for a datagram
/// (sent truncated, TC set, over UDP and whole over TCP), SRV records with port 0, autoconfig documents of the
/// test's own. Every socket is closed by `stop()`; each request is bounded (a DNS query 512 bytes, an HTTP
/// request 8 KiB, 2 s to send it).
final class FakeDiscoveryServer: @unchecked Sendable {
    /// One SRV record: priority, weight, port, target ("" for ".").
    struct SRV: Sendable {
        var priority: UInt16
        var weight: UInt16 = 0
        var port: UInt16
        var target: String
    }

    let dnsPort: UInt16
    let httpPort: UInt16
    private let udp: Int32
    private let tcp: Int32
    private let http: Int32
    private let lock = NSLock()
    private var srv: [String: [SRV]] = [:]
    private var documents: [String: String] = [:]
    private var queries: (udp: Int, tcp: Int) = (0, 0)
    private var paths: [String] = []
    private var running = true
    private var answersOverTCP: Bool
    private let done = DispatchSemaphore(value: 0)

    /// `MAILSTORE_DNS_SERVER` and `MAILSTORE_AUTOCONFIG_URL` for this server.
    var environment: [String: String] {
        ["MAILSTORE_DNS_SERVER": "127.0.0.1:\(dnsPort)", "MAILSTORE_AUTOCONFIG_URL": "http://127.0.0.1:\(httpPort)/v1.1/"]
    }

    /// Starts serving `srv` (by the lower-cased name asked for) and `documents` (by domain; any other is 404).
    /// With `answersOverTCP` false the DNS TCP port accepts and closes at once.
    init(srv: [String: [SRV]], documents: [String: String] = [:], answersOverTCP: Bool = true) throws {
        self.srv = srv
        self.documents = documents
        self.answersOverTCP = answersOverTCP
        var bound: (Int32, Int32, UInt16)?
        for _ in 0..<20 {
            let u = try FakeDiscoveryServer.bind(SOCK_DGRAM, port: 0)
            let port = FakeDiscoveryServer.port(of: u)
            if let t = try? FakeDiscoveryServer.bind(SOCK_STREAM, port: port) {
                bound = (u, t, port)
                break
            }
            close(u)
        }
        guard let (u, t, port) = bound else { throw NSError(domain: "FakeDiscoveryServer", code: 1) }
        (udp, tcp, dnsPort) = (u, t, port)
        http = try FakeDiscoveryServer.bind(SOCK_STREAM, port: 0)
        httpPort = FakeDiscoveryServer.port(of: http)
        Thread { [self] in serve() }.start()
    }

    deinit { stop() }

    /// The DNS queries answered so far over UDP and over TCP.
    var queryCounts: (udp: Int, tcp: Int) { lock.withLock { queries } }
    /// The HTTP paths asked for so far.
    var requestedPaths: [String] { lock.withLock { paths } }

    /// Stops serving and closes every socket (idempotent).
    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        done.wait()
        close(udp)
        close(tcp)
        close(http)
    }

    private var isRunning: Bool { lock.withLock { running } }

    private static func bind(_ type: __socket_type, port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let ok = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0, type == SOCK_DGRAM || listen(fd, 16) == 0 else {
            close(fd)
            throw NSError(domain: "FakeDiscoveryServer", code: Int(errno))
        }
        return fd
    }

    private static func port(of fd: Int32) -> UInt16 {
        var addr = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: addr.sin_port)
    }

    private func serve() {
        defer { done.signal() }
        while isRunning {
            var fds = [pollfd(fd: udp, events: Int16(POLLIN), revents: 0), pollfd(fd: tcp, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: http, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 3, 100) > 0 else { continue }
            if fds[0].revents != 0 { answerUDP() }
            if fds[1].revents != 0 { answerTCP() }
            if fds[2].revents != 0 { answerHTTP() }
        }
    }

    private func answerUDP() {
        var buffer = [UInt8](repeating: 0, count: 512)
        var from = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let n = withUnsafeMutablePointer(to: &from) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(udp, &buffer, buffer.count, 0, $0, &length) }
        }
        guard n > 12, let reply = response(to: Array(buffer[0..<n]), limit: 512) else { return }
        lock.withLock { queries.udp += 1 }
        _ = withUnsafePointer(to: &from) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(udp, reply, reply.count, 0, $0, length) }
        }
    }

    private func answerTCP() {
        let fd = accept(tcp, nil, nil)
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard answersOverTCP, let prefix = read(fd, count: 2) else { return }
        guard let query = read(fd, count: Int(prefix[0]) << 8 | Int(prefix[1])), let reply = response(to: query, limit: 65_535) else { return }
        lock.withLock { queries.tcp += 1 }
        let message = [UInt8(reply.count >> 8), UInt8(reply.count & 0xff)] + reply
        _ = send(fd, message, message.count, Int32(MSG_NOSIGNAL))
    }

    private func answerHTTP() {
        let fd = accept(http, nil, nil)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var request: [UInt8] = []
        let deadline = Date().addingTimeInterval(2)
        while request.count < 8192, !request.ends(with: Array("\r\n\r\n".utf8)), deadline.timeIntervalSinceNow > 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) >= 0 else { return }
            guard pfd.revents != 0 else { continue }
            var byte = [UInt8](repeating: 0, count: 1)
            guard recv(fd, &byte, 1, 0) == 1 else { return }
            request += byte
        }
        let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self).split(separator: " ")
        let path = line.count > 1 ? String(line[1]) : ""
        let document = lock.withLock { () -> String? in
            paths.append(path)
            return documents[String(path.split(separator: "/").last ?? "")]
        }
        let body = Array((document ?? "not found").utf8)
        let head = "HTTP/1.1 \(document == nil ? "404 Not Found" : "200 OK")\r\nContent-Type: text/xml\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let message = Array(head.utf8) + body
        _ = send(fd, message, message.count, Int32(MSG_NOSIGNAL))
    }

    /// Exactly `count` bytes of `fd` within 2 s, or nil.
    private func read(_ fd: Int32, count: Int) -> [UInt8]? {
        var out: [UInt8] = []
        let deadline = Date().addingTimeInterval(2)
        while out.count < count, deadline.timeIntervalSinceNow > 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) >= 0 else { return nil }
            guard pfd.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: count - out.count)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            out += chunk[0..<n]
        }
        return out.count == count ? out : nil
    }

    /// The answer to `query`: its SRV records (others are NXDOMAIN); over `limit` bytes, TC set and only the records
    /// from the end of the list that fit (so the first, best one is never in a truncated answer).
    private func response(to query: [UInt8], limit: Int) -> [UInt8]? {
        var i = 12
        var labels: [String] = []
        while i < query.count, query[i] != 0 {
            let n = Int(query[i])
            guard n < 64, i + 1 + n <= query.count else { return nil }
            labels.append(String(decoding: query[(i + 1)...(i + n)], as: UTF8.self).lowercased())
            i += 1 + n
        }
        guard i + 5 <= query.count else { return nil }
        let questionEnd = i + 5
        let records = lock.withLock { srv[labels.joined(separator: ".")] }
        var header = Array(query[0..<12])
        header[2] = 0x84 | (query[2] & 0x01)
        header[3] = records == nil ? 0x83 : 0x80
        (header[4], header[5], header[8], header[9], header[10], header[11]) = (0, 1, 0, 0, 0, 0)
        let question = Array(query[12..<questionEnd])
        let answers: [[UInt8]] = (records ?? []).map { r in
            var target: [UInt8] = []
            for label in r.target.split(separator: ".") { target += [UInt8(label.utf8.count)] + Array(label.utf8) }
            target.append(0)
            let rdata = [UInt8(r.priority >> 8), UInt8(r.priority & 0xff), UInt8(r.weight >> 8), UInt8(r.weight & 0xff),
                         UInt8(r.port >> 8), UInt8(r.port & 0xff)] + target
            return [0xc0, 12, 0, 33, 0, 1, 0, 0, 0, 60, UInt8(rdata.count >> 8), UInt8(rdata.count & 0xff)] + rdata
        }
        var kept = answers
        var truncated = false
        while 12 + question.count + kept.reduce(0, { $0 + $1.count }) > limit {
            kept.removeFirst()
            truncated = true
        }
        if truncated { header[2] |= 0x02 }
        header[6] = UInt8(kept.count >> 8)
        header[7] = UInt8(kept.count & 0xff)
        return header + question + kept.flatMap { $0 }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
