import Foundation
import XCTest
@testable import MailParser

final class HostileInputTests: XCTestCase {
    /// Structural invariants every parse result must satisfy.
    private func assertSane(_ m: ParsedMessage, count: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThanOrEqual(m.snippet.count, 100, file: file, line: line)
        XCTAssertLessThanOrEqual(m.warnings.count, WarningList.limit + 1, file: file, line: line)
        func walk(_ p: MIMEPart, depth: Int) {
            XCTAssertTrue(p.bodyRange.lowerBound >= 0 && p.bodyRange.upperBound <= count, file: file, line: line)
            XCTAssertLessThanOrEqual(depth, MIMEParser.maxDepth + 1, file: file, line: line)
            for c in p.children { walk(c, depth: depth + 1) }
            if let e = p.embedded { walk(e.root, depth: depth + 1) }
        }
        walk(m.root, depth: 0)
        for a in m.attachments {
            XCTAssertGreaterThanOrEqual(a.size, 0, file: file, line: line)
        }
    }

    func testRandomBinaryGarbage() {
        var rng = SeededGenerator(seed: 0x5EED)
        for round in 0..<300 {
            let size = round < 50 ? round : Int.random(in: 0...20_000, using: &rng)
            var data = [UInt8](repeating: 0, count: size)
            for i in 0..<size { data[i] = UInt8.random(in: 0...255, using: &rng) }
            let m = MailParser.parse(data)
            assertSane(m, count: data.count)
        }
    }

    func testMutatedMessages() {
        let base = bytes("""
        From: "A, B" <a@example.com>, =?utf-8?q?x?= <x@y>
        To: group: c@d, "e" <e@f>;
        Subject: =?utf-8?B?w4RwZmVs?= =?koi8-r?q?=F0?=
        Date: Mon, 1 Jan 2024 10:00:00 +0100 (CET)
        Message-ID: <id@x>
        References: <a@b> <c@d>
        Content-Type: multipart/mixed; boundary="b1"

        --b1
        Content-Type: multipart/alternative; boundary=b2

        --b2
        Content-Type: text/plain; charset=iso-2022-jp
        Content-Transfer-Encoding: quoted-printable

        =1B$B$3$s=1B(B soft=
        break
        --b2
        Content-Type: text/html; charset*=utf-8''x

        <p>&amp;&#x41;<b>bold</b><!-- c --></p>
        --b2--
        --b1
        Content-Type: message/rfc822

        Subject: inner
        Content-Type: text/plain; charset=utf-16

        \u{0}h\u{0}i
        --b1
        Content-Type: application/pdf; name*0*=utf-8''a%20; name*1=b.pdf
        Content-Transfer-Encoding: base64

        JVBERi0xLjQK
        --b1--
        """)
        let clean = MailParser.parse(base)
        XCTAssertEqual(clean.attachments.first?.filename, "a b.pdf")
        var rng = SeededGenerator(seed: 42)
        let specials: [UInt8] = [0x00, 0x0A, 0x0D, 0x2D, 0x3D, 0x3F, 0x3C, 0x3E, 0x22, 0x28, 0x3A, 0x3B, 0xFF, 0x80, 0x1B]
        for _ in 0..<400 {
            var data = base
            let edits = Int.random(in: 1...12, using: &rng)
            for _ in 0..<edits {
                guard !data.isEmpty else { break }
                let pos = Int.random(in: 0..<data.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: data[pos] = specials.randomElement(using: &rng) ?? 0
                case 1: data.remove(at: pos)
                case 2: data.insert(specials.randomElement(using: &rng) ?? 0, at: pos)
                default: data.removeSubrange(pos..<min(data.count, pos + Int.random(in: 1...40, using: &rng)))
                }
            }
            assertSane(MailParser.parse(data), count: data.count)
        }
    }

    func testTruncatedMessagesAtEveryLength() {
        let full = bytes("""
        From: a@b.c
        Subject: =?utf-8?q?trunc=C3=A9?=
        Content-Type: multipart/mixed; boundary=zz

        --zz
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: base64

        w6nDqcOp
        --zz--
        """)
        for n in 0...full.count {
            assertSane(MailParser.parse(Array(full[0..<n])), count: n)
        }
    }

    func testNULBytesEverywhere() {
        var data = bytes("From: a@b.c\nSubject: x\n\nbody")
        for i in stride(from: 0, to: data.count, by: 3) { data[i] = 0 }
        let m = MailParser.parse(data)
        assertSane(m, count: data.count)
        XCTAssertTrue(hasWarning(m, .nulBytes))
    }

    func testTenMegabyteHeaderLine() {
        var data = Array("Subject: ".utf8)
        data += [UInt8](repeating: 0x61, count: 10 * 1024 * 1024)
        data += Array("\r\nX-Folded: a\r\n".utf8)
        for _ in 0..<50_000 { data += Array(" bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\n".utf8) }
        data += Array("From: a@b.c\r\n\r\nbody".utf8)
        let start = Date()
        let m = MailParser.parse(data)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertEqual(m.subject?.utf8.count, HeaderSection.maxValueBytes)
        XCTAssertEqual(m.header("x-folded")?.utf8.count, HeaderSection.maxValueBytes)
        XCTAssertTrue(hasWarning(m, .headerTooLong))
        XCTAssertEqual(m.from.first?.email, "a@b.c")
        XCTAssertEqual(m.textBody, "body")
    }

    func testFiftyMegabyteBase64Attachment() {
        let decoded = 50_000_000
        let encoded = decoded / 3 * 4 + 4  // 66,666,668 characters (with padding)
        let lineLength = 76
        let lines = (encoded + lineLength - 1) / lineLength
        var body = [UInt8](repeating: 0x51, count: encoded + lines * 2)  // 'Q'
        var pos = 0
        var remaining = encoded
        while remaining > 0 {
            let n = min(lineLength, remaining)
            pos += n
            remaining -= n
            body[pos] = 0x0D
            body[pos + 1] = 0x0A
            pos += 2
        }
        // 50,000,000 = 3 * 16,666,666 + 2: the last quantum is "QQQ=".
        body[pos - 3] = 0x3D
        var data = bytes("""
        From: big@example.com
        Subject: big
        Content-Type: multipart/mixed; boundary=BIG

        --BIG
        Content-Type: text/plain

        see attachment
        --BIG
        Content-Type: application/octet-stream; name=big.bin
        Content-Disposition: attachment; filename=big.bin
        Content-Transfer-Encoding: base64


        """)
        data += body
        data += bytes("--BIG--\n")
        let start = Date()
        let m = MailParser.parse(data)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertLessThan(elapsed, 15)
        XCTAssertEqual(m.textBody, "see attachment")
        XCTAssertEqual(m.attachments.count, 1)
        XCTAssertEqual(m.attachments.first?.filename, "big.bin")
        let size = m.attachments.first?.size ?? 0
        XCTAssertLessThan(abs(size - decoded), 16)
    }

    func testSixtyDeepMultipartNesting() {
        var text = "From: deep@example.com\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n"
        for level in 1..<60 {
            text += "--b\(level - 1)\r\nContent-Type: multipart/mixed; boundary=b\(level)\r\n\r\n"
        }
        text += "--b59\r\nContent-Type: text/plain\r\n\r\ndeepest\r\n--b59--\r\n"
        for level in (0..<59).reversed() { text += "--b\(level)--\r\n" }
        let data = Array(text.utf8)
        let m = MailParser.parse(data)
        assertSane(m, count: data.count)
        XCTAssertTrue(hasWarning(m, .nestingTooDeep))
        var depth = 0
        var p = m.root
        while let c = p.children.first { p = c; depth += 1 }
        XCTAssertEqual(depth, MIMEParser.maxDepth)
    }

    func testSixtyDeepEmbeddedMessages() {
        var text = ""
        for _ in 0..<60 { text += "Subject: level\r\nContent-Type: message/rfc822\r\n\r\n" }
        text += "Subject: bottom\r\n\r\nbottom text"
        let data = Array(text.utf8)
        let m = MailParser.parse(data)
        assertSane(m, count: data.count)
        var depth = 0
        var cur: ParsedMessage? = m
        var sawWarning = false
        while let c = cur {
            if c.warnings.contains(where: { $0.code == .nestingTooDeep }) { sawWarning = true }
            cur = c.root.embedded
            depth += 1
        }
        XCTAssertTrue(sawWarning)
        XCTAssertLessThanOrEqual(depth, MIMEParser.maxDepth + 1)
    }

    func testTooManyParts() {
        var text = "Content-Type: multipart/mixed; boundary=p\r\n\r\n"
        for _ in 0..<(MIMEParser.maxParts + 50) { text += "--p\r\n\r\nx\r\n" }
        text += "--p--\r\n"
        let m = MailParser.parse(Array(text.utf8))
        XCTAssertTrue(hasWarning(m, .tooManyParts))
        XCTAssertLessThan(m.root.children.count, MIMEParser.maxParts)
    }

    func testPathologicalHeaderValues() {
        let parens = String(repeating: "(", count: 100_000)
        let quotes = String(repeating: "\"", count: 100_001)
        let angles = String(repeating: "<", count: 100_000)
        let words = String(repeating: "=?utf-8?q?a?= ", count: 4_000)
        let m = parse("From: \(parens)\nTo: \(quotes)\nCc: \(angles)\nSubject: \(words)\nDate: \(parens)\n" +
                      "Message-ID: \(angles)\nReferences: \(angles)\nContent-Type: text/plain; \(parens)\n\nx")
        XCTAssertEqual(m.subject?.count, 4_000)
        XCTAssertEqual(m.subject?.allSatisfy { $0 == "a" }, true)
        XCTAssertEqual(m.textBody, "x")
        XCTAssertNil(m.date)
    }

    func testManyInvalidHeaderLinesKeepWarningsBounded() {
        var text = "From: a@b.c\n"
        for i in 0..<10_000 { text += "garbage line \(i)\n" }
        text += "\nbody"
        let m = parse(text)
        XCTAssertEqual(m.warnings.count, WarningList.limit + 1)
        XCTAssertEqual(m.warnings.last?.code, .tooManyWarnings)
        XCTAssertEqual(m.textBody, "body")
    }

    /// Thousands of the same malformed address, as many as a header value holds (`HeaderSection.maxValueBytes`; each
    /// warning is compared with at most `WarningList.limit` kept ones): one warning, every address parsed and the
    /// field's first 1,000 kept (`Envelope.maxAddressesPerField`).
    func testThousandsOfTheSameMalformedAddressAreOneWarning() {
        let bad = "Someone Without Address"
        let m = parse("From: a@b.c\nTo: " + Array(repeating: bad, count: 2_500).joined(separator: ", ") + "\n\nbody")
        XCTAssertEqual(m.to.count, 1_000)
        XCTAssertEqual(m.warnings.filter { $0.code == .malformedAddress }.map(\.detail), [bad])
        XCTAssertEqual(m.textBody, "body")
    }

    func testEmptyInput() {
        let m = MailParser.parse([])
        XCTAssertTrue(m.headers.isEmpty)
        XCTAssertEqual(m.snippet, "")
        XCTAssertEqual(m.dateSource, DateSource.none)
    }
}

final class HostileScalingTests: XCTestCase {
    private func timed(_ body: () -> Void) -> TimeInterval {
        let start = Date()
        body()
        return Date().timeIntervalSince(start)
    }

    func testManyUnterminatedEncodedWordsStayLinear() {
        let subject = String(repeating: "=?utf-8?q?", count: 6_000)
        var m: ParsedMessage?
        let t = timed { m = parse("Subject: \(subject)\n\nx") }
        XCTAssertLessThan(t, 5)
        XCTAssertEqual(m?.subject?.hasPrefix("=?utf-8?q?"), true)
    }

    func testGarbageAfterQuotedParameterStaysLinear() {
        let junk = String(repeating: "a", count: 60_000)
        var m: ParsedMessage?
        let t = timed { m = parse("Content-Type: text/plain; charset=\"utf-8\"\(junk)\n\nbody") }
        XCTAssertLessThan(t, 5)
        XCTAssertEqual(m?.root.charset, "utf-8")
        XCTAssertEqual(m?.textBody, "body")
    }

    func testLargeCRLFTextBodyStaysLinear() {
        var text = "Content-Type: text/plain\r\n\r\n"
        text += String(repeating: "a line of text in a large body\r\n", count: 200_000)
        let data = Array(text.utf8)
        var m: ParsedMessage?
        let t = timed { m = MailParser.parse(data) }
        XCTAssertLessThan(t, 10)
        XCTAssertEqual(m?.textBody?.utf8.count, 200_000 * 31)
        XCTAssertLessThanOrEqual(m?.snippet.count ?? 0, 100)
        XCTAssertGreaterThan(m?.snippet.count ?? 0, 95)
    }

    func testManyReceivedHeadersWithoutDate() {
        var text = ""
        let tail = String(repeating: "x", count: 60_000)
        for _ in 0..<200 { text += "Received: from a by b; \(tail)\n" }
        text += "Received: by c; Tue, 2 Jan 2024 10:00:00 +0000\n\nbody"
        var m: ParsedMessage?
        let t = timed { m = parse(text) }
        XCTAssertLessThan(t, 10)
        // Only the first Received headers are tried; none of them parse.
        XCTAssertEqual(m?.dateSource, DateSource.none)
    }

    func testHugeAddressList() {
        let list = (0..<20_000).map { "user\($0)@example.com" }.joined(separator: ", ")
        var m: ParsedMessage?
        let t = timed { m = parse("To: \(list)\n\nbody") }
        XCTAssertLessThan(t, 10)
        // The field keeps its first 1,000 addresses, and says so.
        XCTAssertEqual(m?.to.count, 1_000)
        XCTAssertEqual(m?.to.first?.email, "user0@example.com")
        XCTAssertEqual(m?.warnings.filter { $0.code == .tooManyAddresses }.count, 1)
    }

    /// A field repeated many times (each header under the value cap) is bounded as a whole: a message repeating `To:`
    /// a thousand times named millions of addresses, and its event took gigabytes to fold. One warning per field;
    /// the other fields keep theirs; a header of a field already exactly full is warned of too.
    func testARepeatedAddressFieldIsBoundedAsAWhole() {
        let header = (0..<500).map { "u\($0)@example.com" }.joined(separator: ", ")
        var text = "From: a@example.com\nCc: c1@example.com, c2@example.com\n"
        for _ in 0..<1_000 { text += "To: \(header)\n" }
        var m: ParsedMessage?
        let t = timed { m = parse(text + "\nbody") }
        XCTAssertLessThan(t, 10)
        XCTAssertEqual(m?.to.count, Envelope.maxAddressesPerField)
        XCTAssertEqual(m?.cc.count, 2)
        XCTAssertEqual(m?.warnings.filter { $0.code == .tooManyAddresses }.map(\.detail), ["To: more than 1000 addresses; the first 1000 kept"])
        let exact = (0..<1_000).map { "e\($0)@example.com" }.joined(separator: ", ")
        let full = parse("Bcc: \(exact)\nBcc: one.more@example.com\n\nbody")
        XCTAssertEqual(full.bcc.count, 1_000)
        XCTAssertEqual(full.warnings.filter { $0.code == .tooManyAddresses }.count, 1)
        XCTAssertEqual(parse("Bcc: \(exact)\n\nbody").warnings.filter { $0.code == .tooManyAddresses }.count, 0)
    }
}
