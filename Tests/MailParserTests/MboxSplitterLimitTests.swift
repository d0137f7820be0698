import XCTest
@testable import MailParser

/// The splitter's size limit: a message over it is counted and dropped as it streams, never held whole.
final class MboxSplitterLimitTests: XCTestCase {
    private func message(_ subject: String, bodyBytes: Int) -> [UInt8] {
        Array("From a@example.com Mon Jan  1 00:00:00 2024\nSubject: \(subject)\n\n".utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: bodyBytes) + Array("\n\n".utf8)
    }

    func testAMessageOverTheLimitIsReportedWithItsSizeAndNoBytes() {
        var splitter = MboxSplitter(maxMessageBytes: 1_000)
        var out: [MboxMessage] = []
        let input = message("small", bodyBytes: 100) + message("big", bodyBytes: 50_000) + message("after", bodyBytes: 10)
        // Fed in odd-sized chunks, as a file is read.
        var i = 0
        while i < input.count {
            let end = min(input.count, i + 777)
            out += splitter.feed(Array(input[i..<end]))
            i = end
        }
        out += splitter.finish()
        XCTAssertEqual(out.count, 3)
        XCTAssertNil(out[0].oversizedBytes)
        XCTAssertTrue(String(decoding: out[0].bytes, as: UTF8.self).contains("Subject: small"))
        XCTAssertEqual(out[1].bytes, [])
        XCTAssertEqual(out[1].oversizedBytes, 50_000 + "Subject: big\n\n".utf8.count + 1)
        XCTAssertNil(out[2].oversizedBytes)
        XCTAssertTrue(String(decoding: out[2].bytes, as: UTF8.self).contains("Subject: after"))
    }

    /// Zero bytes with no line end at all (what `/dev/zero` gives) make one oversized message, however long.
    func testEndlessBytesWithoutALineEndStayBounded() {
        var splitter = MboxSplitter(maxMessageBytes: 1 << 16)
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<32 { XCTAssertTrue(splitter.feed(zeros).isEmpty) }
        let out = splitter.finish()
        XCTAssertEqual(out.count, 1)
        XCTAssertEqual(out[0].oversizedBytes, 32 << 20)
        XCTAssertEqual(out[0].bytes.count, 0)
    }
}
