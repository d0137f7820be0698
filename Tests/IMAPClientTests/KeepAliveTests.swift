import Foundation
@testable import SecureTransport
import TestSupport
import XCTest

/// Every IMAP and SMTP socket has TCP keepalive on, with intervals that find a dead peer or a NAT's dropped flow within
/// about two minutes of silence (60 s idle, then 4 probes 15 s apart): a silently dropped IDLE connection had been
/// waited on until the IDLE's refresh (20-25 min) while new mail waited for the next poll.
final class KeepAliveTests: XCTestCase {
    /// The socket option `name` at `level` of `fd`.
    private func option(_ fd: Int32, _ level: Int32, _ name: Int32) -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, level, name, &value, &length) == 0 else { return nil }
        return value
    }

    func testAConnectedSocketProbesASilentPeerWithinTwoMinutes() throws {
        let (listener, port) = try XCTUnwrap(LoopbackSocket.listen(backlog: 1))
        defer { close(listener) }
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: port, timeout: 5)
        defer { socket.close() }
        XCTAssertEqual(option(socket.fd, SOL_SOCKET, SO_KEEPALIVE), 1, "keepalive on")
        XCTAssertEqual(option(socket.fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE), 60, "first probe after 60 s of silence")
        XCTAssertEqual(option(socket.fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL), 15, "then one every 15 s")
        XCTAssertEqual(option(socket.fd, Int32(IPPROTO_TCP), TCP_KEEPCNT), 4, "dropped after 4 unanswered")
    }
}
