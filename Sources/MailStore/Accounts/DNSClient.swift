import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SyncCore

/// One DNS query over UDP to an IPv4 resolver, waiting at most `timeout` seconds for the answer
/// (a response of at most 4 KiB from that address and port, with the query's id).
enum DNSClient {
    static func query(server: (String, UInt16), name: String, type: DNSMessage.RecordType,
                      timeout: Double) throws(DiscoveryError) -> (response: [UInt8], id: UInt16) {
        let id = UInt16.random(in: 0...UInt16.max)
        guard let packet = DNSMessage.query(id: id, name: name, type: type) else { throw .dns("cannot ask for \"\(name)\"") }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw .dns("socket: errno \(errno)") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = server.1.bigEndian
        guard inet_pton(AF_INET, server.0, &addr.sin_addr) == 1 else { throw .dns("\(server.0) is not an IPv4 address") }
        // A connected socket: only the resolver's datagrams arrive, and a closed port is reported (ECONNREFUSED).
        let connected = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw .dns("connect: errno \(errno)") }
        guard send(fd, packet, packet.count, 0) == packet.count else { throw .dns("send: errno \(errno)") }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw .timeout(timeout) }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(left * 1000, 10_000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .dns(errno == ECONNREFUSED ? "\(server.0):\(server.1) refused the query" : "receive: errno \(errno)")
            }
            guard n >= 12, UInt16(buffer[0]) << 8 | UInt16(buffer[1]) == id else { continue }
            return (Array(buffer[0..<n]), id)
        }
    }
}
