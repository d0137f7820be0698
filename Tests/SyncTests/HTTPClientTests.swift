@testable import MailStore
import SyncCore
import TestSupport
import XCTest

/// The HTTP/1.1 client's pure parts on hostile bytes: the response parser and chunked decoding, and which
/// URLs it may use. The network side runs against real servers in `AccountDiscoveryTests` (autoconfig:
/// redirects, chunks, a 2 MiB answer) and the OAuth tests (authlib's token endpoint).
final class HTTPClientTests: XCTestCase {
    private func parse(_ text: String) throws -> HTTPResponse { try HTTPClient.parse(Array(text.utf8), from: "h") }

    private func assertBad(_ text: String, _ why: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(text), file: file, line: line) { error in
            guard case .badResponse(_, let m)? = error as? HTTPClientError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertTrue(m.contains(why), m, file: file, line: line)
        }
    }

    func testContentLengthChunkedAndToTheEnd() throws {
        let a = try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A:  b \r\n\r\nhelloEXTRA")
        XCTAssertEqual(a.status, 200)
        XCTAssertEqual(a.headers["x-a"], "b")
        XCTAssertEqual(String(decoding: a.body, as: UTF8.self), "hello")
        let c = try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=v\r\nhello\r\n1\r\n!\r\n0\r\nTrailer: x\r\n\r\n")
        XCTAssertEqual(String(decoding: c.body, as: UTF8.self), "hello!")
        let e = try parse("HTTP/1.0 404 Not Found\r\n\r\nto the end")
        XCTAssertEqual(e.status, 404)
        XCTAssertEqual(String(decoding: e.body, as: UTF8.self), "to the end")
    }

    func testMalformedResponsesAreRefusedWithWhatIsWrong() {
        assertBad("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", "no end of the headers")
        assertBad("", "no end of the headers")
        assertBad("SMTP 220 hello\r\n\r\n", "status line")
        assertBad("HTTP/1.1 2000 OK\r\n\r\n", "status line")
        assertBad("HTTP/1.1 abc OK\r\n\r\n", "status line")
        assertBad("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "ends after 5 of 10 bytes")
        assertBad("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length")
        // RFC 9110's 1*DIGIT: no sign (`Int` takes one); the server's text is shown printable, for a terminal.
        assertBad("HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello", "Content-Length +5")
        assertBad("HTTP/1.1 200 OK\r\nContent-Length: 5\u{1B}[2J\r\n\r\nhello", "Content-Length 5?[2J")
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", "without its last chunk")
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", "chunk size")
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\nhello\r\n0\r\n\r\n", "chunk size")
        // A size that would overflow an Int, or claim more than is there.
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nx\r\n0\r\n\r\n", "chunk size")
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nx\r\n0\r\n\r\n", "chunk size")
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffff\r\nx\r\n0\r\n\r\n", "ends early")
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhelloXX0\r\n\r\n", "without its CRLF")
    }

    /// Against the real autoconfig server: with redirects allowed one is followed; with none (OAuth's
    /// metadata GETs, which try the next well-known path on anything but 200) it is returned as it is.
    func testARedirectIsFollowedOnlyWhenAllowed() throws {
        let base = try TestServers.discovery().autoconfigURL
        var client = HTTPClient(timeoutSeconds: 5, deadlineSeconds: 10)
        let returned = try client.get(base + "moved.test")
        XCTAssertEqual(returned.status, 301)
        XCTAssertEqual(returned.headers["location"], "/v1.1/ispdb.test")
        client.maxRedirects = 5
        let followed = try client.get(base + "moved.test")
        XCTAssertEqual(followed.status, 200)
        XCTAssertTrue(String(decoding: followed.body, as: UTF8.self).contains("imap.ispdb.test"))
    }

    func testOnlyHTTPSOrLoopbackHTTPAndNoSpacesInTheRequestLine() throws {
        XCTAssertEqual(try HTTPClient.target("https://auth.example.com/token?a=1").path, "/token?a=1")
        XCTAssertEqual(try HTTPClient.target("https://auth.example.com").port, 443)
        XCTAssertEqual(try HTTPClient.target("http://127.0.0.1:8080/x").hostHeader, "127.0.0.1:8080")
        XCTAssertEqual(try HTTPClient.target("http://localhost/x").port, 80)
        func refused(_ url: String, _ expected: HTTPClientError) {
            XCTAssertThrowsError(try HTTPClient.target(url), url) { XCTAssertEqual($0 as? HTTPClientError, expected, url) }
        }
        refused("http://autoconfig.example.com/v1.1/x", .insecureURL("http://autoconfig.example.com/v1.1/x"))
        refused("ftp://example.com/x", .invalidURL("ftp://example.com/x"))
        refused("/relative", .invalidURL("/relative"))
        refused("https://example.com:0/", .invalidURL("https://example.com:0/"))
        refused("https://example.com/a%20b\r\nX: y", .invalidURL("https://example.com/a%20b\r\nX: y"))
    }
}
