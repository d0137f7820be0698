import Foundation
import MailStore
import TestSupport
import XCTest

/// The resolver account discovery falls back to: the first IPv4 `nameserver` of a resolver file read within a bound.
final class SystemResolverTests: XCTestCase {
    private func write(_ text: String, in dir: TemporaryDirectory) throws -> String {
        let path = dir.file("resolv.conf")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testTheFirstIPv4NameserverIsTaken() throws {
        let dir = TemporaryDirectory()
        let path = try write("# comment\nsearch example.org\nnameserver ::1\nnameserver\t10.0.0.53\nnameserver 10.0.0.54\n", in: dir)
        let server = try XCTUnwrap(AccountDiscovery.systemResolver(path: path))
        XCTAssertEqual(server.0, "10.0.0.53")
        XCTAssertEqual(server.1, 53)
        XCTAssertNil(AccountDiscovery.systemResolver(path: try write("nameserver fe80::1\noptions ndots:2\n", in: dir)))
        XCTAssertNil(AccountDiscovery.systemResolver(path: dir.file("missing")))
    }

    func testAFileOverTheBoundIsNotRead() throws {
        let dir = TemporaryDirectory()
        let line = "nameserver 10.0.0.53\n"
        let padding = String(repeating: "#", count: AccountDiscovery.resolverFileMaxBytes - line.utf8.count - 1) + "\n"
        XCTAssertNotNil(AccountDiscovery.systemResolver(path: try write(line + padding, in: dir)), "a file of exactly the bound is read")
        XCTAssertNil(AccountDiscovery.systemResolver(path: try write(line + padding + "#", in: dir)), "one byte over it is not")
    }
}
