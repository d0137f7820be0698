import XCTest
@testable import MailParser

final class HeaderSectionTests: XCTestCase {
    func testFoldedHeadersAreUnfoldedAndKeptInOrder() {
        let m = parse("""
        From: a@example.com
        Subject: a long
          subject line
        \tcontinued
        X-Custom: one
        x-custom: two

        body
        """)
        XCTAssertEqual(m.headers.map(\.name), ["From", "Subject", "X-Custom", "x-custom"])
        XCTAssertEqual(m.subject, "a long subject line continued")
        XCTAssertEqual(m.header("SUBJECT"), "a long subject line continued")
        XCTAssertEqual(m.headers(named: "X-CUSTOM"), ["one", "two"])
        XCTAssertEqual(m.textBody, "body")
    }

    func testLFOnlySeparator() {
        let m = parse("Subject: hi\nFrom: x@y.z\n\nline1\nline2\n", crlf: false)
        XCTAssertEqual(m.subject, "hi")
        XCTAssertEqual(m.textBody, "line1\nline2\n")
        XCTAssertFalse(hasWarning(m, .noHeaderBodySeparator))
    }

    func testCRLFBodyIsNormalisedToLF() {
        let m = parse("Subject: hi\n\nline1\nline2\n")
        XCTAssertEqual(m.textBody, "line1\nline2\n")
    }

    func testNoSeparatorAllHeaders() {
        let m = parse("From: a@b.c\nSubject: only headers\n")
        XCTAssertEqual(m.subject, "only headers")
        XCTAssertEqual(m.from.first?.email, "a@b.c")
        XCTAssertTrue(hasWarning(m, .noHeaderBodySeparator))
        XCTAssertEqual(m.textBody ?? "", "")
    }

    func testNoSeparatorBodyAfterHeaders() {
        let m = parse("From: a@b.c\nSubject: s\nThis is body text without a blank line\nmore\n")
        XCTAssertEqual(m.subject, "s")
        XCTAssertTrue(hasWarning(m, .noHeaderBodySeparator))
        XCTAssertEqual(m.textBody, "This is body text without a blank line\nmore\n")
    }

    func testNoHeadersAtAllIsBody() {
        let m = parse("Hello there, this is not a header\nsecond line\n")
        XCTAssertTrue(m.headers.isEmpty)
        XCTAssertTrue(hasWarning(m, .noHeaderBodySeparator))
        XCTAssertEqual(m.textBody, "Hello there, this is not a header\nsecond line\n")
        XCTAssertEqual(m.snippet, "Hello there, this is not a header second line")
    }

    func testLineWithoutColonIsSkippedWithWarning() {
        let m = parse("From: a@b.c\nthis line is broken\nSubject: ok\n\nbody")
        XCTAssertEqual(m.subject, "ok")
        XCTAssertEqual(m.headers.count, 2)
        XCTAssertTrue(hasWarning(m, .invalidHeaderLine))
        XCTAssertEqual(m.textBody, "body")
    }

    func testWhitespaceBeforeColonAndCaseInsensitiveNames() {
        let m = parse("SUBJECT : spaced\nfRoM: A <a@b.c>\n\nx")
        XCTAssertEqual(m.subject, "spaced")
        XCTAssertEqual(m.from.first?.email, "a@b.c")
    }

    func testBareCRAndNULTolerated() {
        var raw = bytes("Subject: a\u{0}b\nX-Bare: one\rtwo\n\nbo\u{0}dy\n")
        raw.append(0)
        let m = MailParser.parse(raw)
        XCTAssertEqual(m.subject, "ab")
        XCTAssertEqual(m.header("x-bare"), "one two")
        XCTAssertTrue(hasWarning(m, .nulBytes))
        XCTAssertEqual(m.textBody, "body\n")
    }

    func testMboxFromLineIsSkipped() {
        let m = parse("From someone@example.com Mon Jan  1 00:00:00 2024\nSubject: hi\n\nbody")
        XCTAssertEqual(m.subject, "hi")
        XCTAssertEqual(m.headers.count, 1)
    }

    func testHeaderValueIsCapped() {
        let long = String(repeating: "x", count: 200_000)
        let m = parse("Subject: \(long)\nFrom: a@b.c\n\nbody")
        XCTAssertEqual(m.subject?.utf8.count, HeaderSection.maxValueBytes)
        XCTAssertTrue(hasWarning(m, .headerTooLong))
        XCTAssertEqual(m.from.first?.email, "a@b.c")
    }

    func testUTF8HeadersRFC6532AndLatin1Fallback() {
        let m = parse("Subject: Grüße\n\nx")
        XCTAssertEqual(m.subject, "Grüße")
        var raw = Array("Subject: Gr".utf8)
        raw += [0xFC, 0xDF, 0x65]
        raw += Array("\r\n\r\nx".utf8)
        XCTAssertEqual(MailParser.parse(raw).subject, "Grüße")
    }
}
