import Foundation
import XCTest
@testable import MailParser

/// A body's text is decoded from a window of its encoded bytes when a reader keeps only part of it
/// (`MIMEPart.decodedText(in:limit:)`, `TextWindow`), and a full parse keeps at most
/// `ParsedMessage.maxBodyTextBytes` of the text and HTML parts: a 60 MB body was decoded whole (the message, its
/// text normalised and its text converted: three copies at once) to keep a snippet or 1 MiB of it.
final class BodyTextBoundTests: XCTestCase {
    /// A message of `headers` (LF, made CRLF) and then `body` as it is.
    private func message(_ headers: String, body: [UInt8]) -> [UInt8] {
        bytes(headers + "\n\n") + body
    }

    /// `count` lines of text (CRLF), with non-ASCII characters when `unicode`.
    private func lines(_ count: Int, unicode: Bool = false) -> String {
        var s = ""
        s.reserveCapacity(count * 64)
        for i in 0..<count {
            s += unicode ? "line \(i) café 日本語 naïve 😀 résumé\r\n" : "line \(i) of a very long body of plain text\r\n"
        }
        return s
    }

    /// Base64 in lines of 76 characters.
    private func base64Lines(_ data: [UInt8]) -> [UInt8] {
        let text = Data(data).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
        return bytes(text + "\n")
    }

    /// Quoted-printable of `data` (LF and CRLF hard breaks), soft breaks every ~72 characters wherever they fall
    /// (inside a character's escapes too, never inside one escape).
    private func quotedPrintable(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var column = 0
        let hex = Array("0123456789ABCDEF".utf8)
        var i = 0
        while i < data.count {
            let b = data[i]
            if b == 0x0D, i + 1 < data.count, data[i + 1] == 0x0A {
                out += [0x0D, 0x0A]
                column = 0
                i += 2
                continue
            }
            if column >= 72 {
                out += Array("=\r\n".utf8)
                column = 0
            }
            if b >= 0x21 && b <= 0x7E && b != UInt8(ascii: "=") {
                out.append(b)
                column += 1
            } else {
                out += [UInt8(ascii: "="), hex[Int(b >> 4)], hex[Int(b & 15)]]
                column += 3
            }
            i += 1
        }
        return out
    }

    /// The root part's text decoded whole, then cut (what `decodedText(in:limit:)` must equal), and decoded
    /// through its window.
    private func both(_ raw: [UInt8], limit: Int) -> (whole: String, windowed: String, window: Int, body: Int) {
        let root = MailParser.parseStructure(raw)
        let whole = MIMEPart.cut(root.decodedText(in: raw), to: limit).text
        let (windowed, _, window) = raw.withUnsafeBufferPointer { buf in
            var w = WarningList()
            return root.decodeText(buf, limit: limit, warnings: &w)
        }
        return (whole, windowed, window, root.bodyRange.count)
    }

    func testALongPlainBodyKeepsTheBoundDecodedFromAWindow() {
        let text = lines(400_000)  // ~18 MB
        let raw = message("Subject: big\nContent-Type: text/plain; charset=utf-8", body: Array(text.utf8))
        let m = MailParser.parse(raw)
        let limit = ParsedMessage.maxBodyTextBytes
        XCTAssertEqual(m.textBody?.utf8.count, limit)
        XCTAssertTrue(hasWarning(m, .bodyTextCut))
        let expected = String(decoding: text.replacingOccurrences(of: "\r\n", with: "\n").utf8.prefix(limit), as: UTF8.self)
        XCTAssertEqual(m.textBody, expected)
        XCTAssertEqual(m.snippet, Snippet.make(fromPlainText: expected))
        // Decoded from the first window alone, not from the 18 MB.
        let r = both(raw, limit: limit)
        XCTAssertEqual(r.window, TextWindow.first(for: limit))
        XCTAssertLessThan(r.window, r.body)
        XCTAssertEqual(r.windowed, r.whole)
    }

    func testABodyWithinTheBoundIsWholeAndWarnsOfNothing() {
        let text = lines(1_000)
        let m = MailParser.parse(message("Content-Type: text/plain", body: Array(text.utf8)))
        XCTAssertEqual(m.textBody, text.replacingOccurrences(of: "\r\n", with: "\n"))
        XCTAssertFalse(hasWarning(m, .bodyTextCut))
    }

    func testAnHTMLBodyKeepsTheBoundToo() {
        let html = "<html><body>" + String(repeating: "<p>a paragraph of an enormous newsletter</p>\r\n", count: 250_000)
        let m = MailParser.parse(message("Content-Type: text/html; charset=utf-8", body: Array(html.utf8)))
        XCTAssertEqual(m.htmlBody?.utf8.count, ParsedMessage.maxBodyTextBytes)
        XCTAssertTrue(hasWarning(m, .bodyTextCut))
        XCTAssertEqual(m.snippet, Snippet.make(fromHTML: html))
    }

    /// For every transfer encoding and the charsets that decode differently, a body much longer than its window
    /// gives exactly the whole body's text cut to the limit.
    func testWindowedTextEqualsTheWholeTextCutForEachEncoding() {
        let unicode = lines(12_000, unicode: true)
        let ascii = lines(12_000)
        let latin = Array(repeating: "caf\u{E9} na\u{EF}ve \u{80} r\u{E9}sum\u{E9} line\r\n", count: 20_000).joined()
        var cases: [(String, String, [UInt8])] = [
            ("7bit ascii", "Content-Type: text/plain", Array(ascii.utf8)),
            ("8bit utf-8", "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit", Array(unicode.utf8)),
            ("8bit unlabelled utf-8", "Content-Transfer-Encoding: 8bit", Array(unicode.utf8)),
            ("base64 utf-8", "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64",
             base64Lines(Array(unicode.utf8))),
            ("quoted-printable utf-8", "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable",
             quotedPrintable(Array(unicode.utf8))),
            ("8bit windows-1252", "Content-Type: text/plain; charset=windows-1252\nContent-Transfer-Encoding: 8bit",
             latin.unicodeScalars.map { UInt8($0.value) }),
            ("base64 html utf-8", "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: base64",
             base64Lines(Array(("<p>" + unicode).utf8))),
        ]
        let bmp = unicode.replacingOccurrences(of: "😀", with: "☺")
        if let utf16 = bmp.data(using: .utf16LittleEndian) {
            cases.append(("base64 utf-16le", "Content-Type: text/plain; charset=utf-16le\nContent-Transfer-Encoding: base64",
                          base64Lines(Array(utf16))))
        }
        if let sjis = ascii.replacingOccurrences(of: "plain", with: "日本語").data(using: .shiftJIS) {
            cases.append(("8bit shift_jis", "Content-Type: text/plain; charset=shift_jis\nContent-Transfer-Encoding: 8bit",
                          Array(sjis)))
        }
        for (name, headers, body) in cases {
            for limit in [64 << 10, 100_003] {
                let r = both(message(headers, body: body), limit: limit)
                XCTAssertLessThan(r.window, r.body, name)
                XCTAssertLessThanOrEqual(r.window, TextWindow.last(for: limit), name)
                XCTAssertGreaterThan(r.whole.utf8.count, limit - 4, name)
                XCTAssertEqual(r.windowed, r.whole, "\(name), limit \(limit)")
            }
        }
    }

    /// Text that shrinks past the last window (NULs, removed) yields what that window gives: what lies past it is
    /// never decoded.
    func testTextPastTheLastWindowIsNeverDecoded() {
        let limit = 64 << 10
        var body = [UInt8](repeating: 0, count: 2 * TextWindow.last(for: limit))
        body += Array("findme\r\n".utf8)
        let r = both(message("Content-Type: text/plain", body: body), limit: limit)
        XCTAssertEqual(r.window, TextWindow.last(for: limit))
        XCTAssertFalse(r.windowed.contains("findme"))
        XCTAssertTrue(r.whole.contains("findme"))
    }

    /// A full parse decodes one window: a body whose text shrinks past it (NULs) keeps what that window gives.
    func testAFullParseDecodesTheFirstWindowOnly() {
        let limit = ParsedMessage.maxBodyTextBytes
        var body = Array("start\r\n".utf8) + [UInt8](repeating: 0, count: TextWindow.first(for: limit))
        body += Array("findme\r\n".utf8)
        XCTAssertLessThan(body.count, TextWindow.last(for: limit))
        let m = MailParser.parse(message("Content-Type: text/plain", body: body))
        XCTAssertEqual(m.textBody, "start\n")
        XCTAssertTrue(hasWarning(m, .bodyTextCut))
        // Widened, the same part gives its whole text.
        XCTAssertEqual(both(message("Content-Type: text/plain", body: body), limit: limit).windowed, "start\nfindme\n")
    }

    func testTheCutFallsAtTheEndOfAScalar() {
        let text = String(repeating: "é", count: 100_000)  // one line, no LF: cut inside its window
        let r = both(message("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit",
                             body: Array(text.utf8)), limit: 1_001)
        XCTAssertEqual(r.windowed.utf8.count, 1_000)
        XCTAssertEqual(r.windowed, String(repeating: "é", count: 500))
        XCTAssertEqual(MIMEPart.cut("aé😀", to: 5).text, "aé")
        XCTAssertEqual(MIMEPart.cut("aé😀", to: 7).text, "aé😀")
        XCTAssertEqual(MIMEPart.cut("aé😀", to: 0).text, "")
    }

    /// An unlabelled 8-bit body that is UTF-8 stays UTF-8 when its window ends inside a character (not Windows-1252
    /// for a cut sequence), with no warning.
    func testAWindowEndingInsideACharacterKeepsUTF8() {
        let text = String(repeating: "日本語のテキスト", count: 200_000)  // one line of 3-byte characters
        let raw = message("Content-Transfer-Encoding: 8bit", body: Array(text.utf8))
        let root = MailParser.parseStructure(raw)
        for limit in [10_000, 10_001, 10_002, 1 << 20] {
            var w = WarningList()
            let (t, cut, _) = raw.withUnsafeBufferPointer { root.decodeText($0, limit: limit, warnings: &w) }
            XCTAssertTrue(cut)
            XCTAssertEqual(t.utf8.count, limit / 3 * 3)
            XCTAssertTrue(text.hasPrefix(t))
            XCTAssertEqual(w.items, [])
        }
    }

    /// A window with no line end that ends inside a character of a charset decoded by iconv (a UTF-16 surrogate
    /// pair, a Shift_JIS or GB18030 character, an ISO-2022-JP escape) leaves the cut character out: the windowed text
    /// is the whole text's prefix, with no U+FFFD and no warning (it had both: `invalidCharsetBytes`).
    func testAWindowEndingInsideACharacterOfAnyCharsetLeavesItOut() {
        let line = String(repeating: "日本語😀テキスト漢字", count: 60_000)  // one line: no window holds a line end
        var cases: [(String, String, [UInt8])] = []
        if let d = line.data(using: .utf16LittleEndian) {
            cases.append(("utf-16le base64", "Content-Type: text/plain; charset=utf-16le\nContent-Transfer-Encoding: base64",
                          base64Lines(Array(d))))
        }
        if let d = line.data(using: .utf16BigEndian) {
            cases.append(("utf-16be 8bit", "Content-Type: text/plain; charset=utf-16be\nContent-Transfer-Encoding: 8bit",
                          Array(d)))
        }
        let cjk = line.replacingOccurrences(of: "😀", with: "")
        if let d = cjk.data(using: .shiftJIS) {
            cases.append(("shift_jis 8bit", "Content-Type: text/plain; charset=shift_jis\nContent-Transfer-Encoding: 8bit",
                          Array(d)))
        }
        if let d = cjk.data(using: .iso2022JP) {
            cases.append(("iso-2022-jp 7bit", "Content-Type: text/plain; charset=iso-2022-jp", Array(d)))
        }
        cases.append(("gb18030 8bit", "Content-Type: text/plain; charset=gb18030\nContent-Transfer-Encoding: 8bit",
                      iconv(line, to: "GB18030")))
        for (name, headers, body) in cases {
            XCTAssertGreaterThan(body.count, 300_000, name)
            let raw = message(headers, body: body)
            let root = MailParser.parseStructure(raw)
            let whole = root.decodedText(in: raw)
            XCTAssertFalse(whole.contains("\u{FFFD}"), name)
            // Windows one byte apart: some end inside a character (or a surrogate pair, or an escape) whatever the
            // charset's widths. The limits are past what the first window gives, so the last one is cut too.
            for limit in (40_000..<40_008).map({ $0 * 2 }) + [400_000, 400_001] {
                var w = WarningList()
                let (t, cut, window) = raw.withUnsafeBufferPointer { root.decodeText($0, limit: limit, warnings: &w) }
                XCTAssertTrue(cut, name)
                XCTAssertLessThan(window, root.bodyRange.count, name)
                XCTAssertFalse(t.contains("\u{FFFD}"), "\(name), limit \(limit)")
                XCTAssertTrue(whole.hasPrefix(t), "\(name), limit \(limit)")
                XCTAssertEqual(w.items, [], "\(name), limit \(limit)")
            }
        }
    }

    /// `text` in `charset` by glibc's iconv (the charsets Foundation does not encode).
    private func iconv(_ text: String, to charset: String) -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
        p.arguments = ["-f", "UTF-8", "-t", charset]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        guard (try? p.run()) != nil else { return [] }
        let writer = Thread { input.fileHandleForWriting.write(Data(text.utf8)); try? input.fileHandleForWriting.close() }
        writer.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Array(out)
    }

    /// Line ends normalised straight into the text's storage give what normalising into a copy first gave: the same
    /// text and warnings, for each charset path.
    func testNormalisingIntoTheTextEqualsNormalisingFirst() {
        let inputs: [[UInt8]] = [
            Array("a\r\nb\u{0}c\rd\r\r\n".utf8), Array("café\r\nnaïve\0".utf8), [0xE9, 0x0D, 0x0A, 0x41],
            [0x1B, 0x24, 0x42, 0x30, 0x21, 0x1B, 0x28, 0x42, 0x0D, 0x0A], Array("plain ascii\r\n".utf8),
            [0xC3, 0x00, 0xA9, 0x0D], [0xF0, 0x9F, 0x98, 0x80, 0x0D, 0x0A, 0xED, 0xA0, 0x80],
        ]
        let charsets: [String?] = [nil, "utf-8", "us-ascii", "iso-8859-1", "windows-1252", "shift_jis", "iso-2022-jp",
                                   "x-unknown-charset"]
        for input in inputs {
            for charset in charsets {
                input.withUnsafeBufferPointer { b in
                    var w = WarningList()
                    let text = MIMEPart.decodeText(b, charset: charset, warnings: &w)
                    let clean = TextNormalizer.normalize(b) ?? Array(b)
                    let (expected, warning) = clean.withUnsafeBufferPointer { Charsets.decode(buffer: $0, charset: charset) }
                    XCTAssertEqual(text, expected, "\(input) \(charset ?? "nil")")
                    XCTAssertEqual(w.items, warning.map { [$0] } ?? [], "\(input) \(charset ?? "nil")")
                }
            }
        }
    }

    func testWindowsGrowWithTheLimit() {
        XCTAssertEqual(TextWindow.first(for: 1 << 20), (1 << 20) + (1 << 19) + TextWindow.slackBytes)
        XCTAssertEqual(TextWindow.last(for: 1 << 20), (4 << 20) + TextWindow.slackBytes)
        XCTAssertEqual(TextWindow.first(for: 0), TextWindow.slackBytes)
        XCTAssertGreaterThan(TextWindow.last(for: Int.max), 0)
        XCTAssertGreaterThan(TextWindow.first(for: Int.max), 0)
    }
}
