import Foundation

/// A TCP socket on 127.0.0.1 at a port the kernel picks, for the fake servers of the tests.
package enum LoopbackSocket {
    /// A socket listening with `backlog` (or, with nil, bound and not listening: connecting to it is refused) and
    /// its port, or nil when it cannot be made (the socket closed then).
    package static func listen(backlog: Int32?) -> (fd: Int32, port: UInt16)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && (backlog.map { Glibc.listen(fd, $0) == 0 } ?? true)
                    && getsockname(fd, $0, &length) == 0
            }
        }
        guard ready else { close(fd); return nil }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
