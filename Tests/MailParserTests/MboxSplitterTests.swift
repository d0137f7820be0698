import XCTest
@testable import MailParser

final class MboxSplitterTests: XCTestCase {
    private let mbox = """
    From alice@example.com Mon Jan  1 00:00:00 2024
    From: alice@example.com
    Subject: one

    Hello
    >From the quoted line
    >>From double quoted
    From inside a paragraph is not a separator

    From bob@example.com Tue Jan  2 10:20:30 2024
    From: bob@example.com
    Subject: two

    Second body

    with blank lines inside


    From carol@example.com Wed Jan  3 00:00:00 2024
    Subject: three

    Third

    """

    private func split(_ data: [UInt8], chunk: Int) -> [MboxMessage] {
        var s = MboxSplitter()
        var out: [MboxMessage] = []
        var i = 0
        while i < data.count {
            let end = min(data.count, i + chunk)
            out += s.feed(Array(data[i..<end]))
            i = end
        }
        out += s.finish()
        return out
    }

    private func check(_ msgs: [MboxMessage], eol: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(msgs.count, 3, file: file, line: line)
        guard msgs.count == 3 else { return }
        let first = String(decoding: msgs[0].bytes, as: UTF8.self)
        XCTAssertEqual(first, ["From: alice@example.com", "Subject: one", "", "Hello", "From the quoted line",
                               ">From double quoted", "From inside a paragraph is not a separator", ""]
                        .joined(separator: eol), file: file, line: line)
        XCTAssertEqual(String(decoding: msgs[1].bytes, as: UTF8.self),
                       ["From: bob@example.com", "Subject: two", "", "Second body", "", "with blank lines inside",
                        "", ""].joined(separator: eol), file: file, line: line)
        XCTAssertEqual(String(decoding: msgs[2].bytes, as: UTF8.self),
                       ["Subject: three", "", "Third", ""].joined(separator: eol), file: file, line: line)
        XCTAssertEqual(msgs.map(\.envelopeSender), ["alice@example.com", "bob@example.com", "carol@example.com"],
                       file: file, line: line)
        XCTAssertEqual(msgs[0].envelopeDate, utc(2024, 1, 1), file: file, line: line)
        XCTAssertEqual(msgs[1].envelopeDate, utc(2024, 1, 2, 10, 20, 30), file: file, line: line)
    }

    func testSplitsWholeFile() {
        check(split(bytes(mbox, crlf: false), chunk: 1 << 20), eol: "\n")
    }

    func testChunkBoundariesAnywhere() {
        let data = bytes(mbox, crlf: false)
        for chunk in [1, 2, 3, 5, 7, 13, 64] {
            check(split(data, chunk: chunk), eol: "\n")
        }
    }

    func testCRLFFile() {
        let data = bytes(mbox, crlf: true)
        check(split(data, chunk: 1 << 20), eol: "\r\n")
        check(split(data, chunk: 1), eol: "\r\n")
        check(split(data, chunk: 4), eol: "\r\n")
    }

    func testFileStartWithoutBlankAndNoTrailingNewline() {
        let msgs = split(bytes("From x@y Thu Aug 26 16:49:36 2021\nSubject: a\n\nbody", crlf: false), chunk: 3)
        XCTAssertEqual(msgs.count, 1)
        XCTAssertEqual(msgs.first.map { String(decoding: $0.bytes, as: UTF8.self) }, "Subject: a\n\nbody")
        XCTAssertEqual(msgs.first?.envelopeDate, utc(2021, 8, 26, 16, 49, 36))
    }

    func testLeadingBlankLinesAndFileWithoutFromLine() {
        let msgs = split(bytes("\n\nSubject: no envelope\n\nbody\n", crlf: false), chunk: 5)
        XCTAssertEqual(msgs.count, 1)
        XCTAssertNil(msgs.first?.envelopeSender)
        XCTAssertEqual(msgs.first.map { String(decoding: $0.bytes, as: UTF8.self) }, "Subject: no envelope\n\nbody\n")
    }

    func testEmptyInput() {
        XCTAssertTrue(split([], chunk: 10).isEmpty)
    }

    func testMessagesReturnedAsSoonAsComplete() {
        var s = MboxSplitter()
        XCTAssertTrue(s.feed(bytes("From a@b Mon Jan  1 00:00:00 2024\nSubject: 1\n\nx\n\n", crlf: false)).isEmpty)
        let done = s.feed(bytes("From c@d Mon Jan  1 00:00:00 2024\nSubject: 2\n\ny\n", crlf: false))
        XCTAssertEqual(done.count, 1)
        XCTAssertEqual(String(decoding: done[0].bytes, as: UTF8.self), "Subject: 1\n\nx\n")
        XCTAssertEqual(s.finish().count, 1)
    }

    func testALongQuotedFromLineIsUnquotedWhateverTheChunks() {
        // Found while writing the mbox fuzz target: a `>From ` line longer than 4 KiB kept its `>` when read in one chunk
        // and lost it when read in small ones.
        let input = Array("From a@b Mon Jan  1 00:00:00 2024\nx\n>From ".utf8) + [UInt8](repeating: 0x61, count: 5000) + [0x0A]
        let expected = Array("x\nFrom ".utf8) + [UInt8](repeating: 0x61, count: 5000) + [0x0A]
        for size in [input.count, 4096, 17, 1] {
            XCTAssertEqual(split(input, chunk: size).map(\.bytes), [expected], "chunks of \(size)")
        }
        // A line whose `>` run hides `From ` beyond the first 4,098 bytes is ordinary, in any chunks.
        let deep = Array("From a@b Mon Jan  1 00:00:00 2024\n".utf8) + [UInt8](repeating: 0x3E, count: 4094) + Array("From x\n".utf8)
        for size in [deep.count, 4096, 17, 1] {
            XCTAssertEqual(split(deep, chunk: size).map(\.bytes), [Array(deep[34...])], "chunks of \(size)")
        }
    }

    func testLongLinesAreNotQuadratic() {
        var data = bytes("From a@b Mon Jan  1 00:00:00 2024\nSubject: big\n\n", crlf: false)
        data += [UInt8](repeating: 0x3E, count: 3_000_000)  // a 3 MB line of '>'
        data += bytes("\nend\n", crlf: false)
        let start = Date()
        let msgs = split(data, chunk: 1 << 16)
        XCTAssertEqual(msgs.count, 1)
        XCTAssertEqual(msgs.first?.bytes.count, data.count - 34)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }
}
