import Foundation
import MailParser
import XCTest

/// Text from mail reaches a terminal without escape sequences, controls or bidi tricks.
final class TerminalTextTests: XCTestCase {
    func testTheIssuesEncodedSubjectLosesItsScreenClearAndClipboardWrite() {
        let subject = EncodedWords.decode("=?utf-8?q?hi=1B[2J=1B]52;c;aGVsbG8=3D=07?=")
        XCTAssertTrue(subject.unicodeScalars.contains { $0.value == 0x1B }, "the decoded subject carries the escapes: \(subject.debugDescription)")
        XCTAssertEqual(TerminalText.line(subject), "hi")
    }

    func testOSC52EndedByStringTerminatorAndC1FormsGoWhole() {
        XCTAssertEqual(TerminalText.line("a\u{1B}]52;c;ZXZpbA==\u{1B}\\b"), "ab")
        XCTAssertEqual(TerminalText.line("a\u{9D}52;c;ZXZpbA==\u{9C}b"), "ab")
        XCTAssertEqual(TerminalText.line("a\u{9B}31mb"), "ab")
        XCTAssertEqual(TerminalText.line("a\u{1B}P1$r\u{1B}\\b"), "ab")
        XCTAssertEqual(TerminalText.line("title\u{1B}]0;pwned\u{07}"), "title")
    }

    func testCSIAndShortEscapesGo() {
        XCTAssertEqual(TerminalText.line("\u{1B}[31mred\u{1B}[0m"), "red")
        XCTAssertEqual(TerminalText.line("\u{1B}[?1049h\u{1B}[1;1Hx"), "x")
        XCTAssertEqual(TerminalText.line("a\u{1B}cb\u{1B}(0c"), "abc")
        XCTAssertEqual(TerminalText.line("trailing\u{1B}"), "trailing")
        XCTAssertEqual(TerminalText.line("unterminated\u{1B}]52;c;text"), "unterminated52;c;text",
                       "of a string never ended only its introducer goes")
    }

    /// Of a control string never ended (by BEL, ST or another ESC) only the introducer goes: its text, printable once
    /// the ESC is gone, stays, and so does the rest of the line. The whole string to the line's end had gone: a
    /// Subject or display name with `ESC ] 0 ;` and no end took the address, folder or counts after it in the same
    /// printed line with it (`contacts complete`, `log`, `history`).
    func testAStringNeverEndedLosesOnlyItsIntroducer() {
        XCTAssertEqual(TerminalText.block("a\u{1B}]0;title\nnext\u{9D}x\r\nlast"), "a0;title\nnextx\nlast")
        XCTAssertEqual(TerminalText.line("Osc Name \u{1B}]0;x <osc@name.example> 3 messages"), "Osc Name 0;x <osc@name.example> 3 messages")
        XCTAssertEqual(TerminalText.line("\"Invoice \u{1B}]0;hidden\" from Real Sender <r@example.org> in INBOX"),
                       "\"Invoice 0;hidden\" from Real Sender <r@example.org> in INBOX")
        XCTAssertEqual(TerminalText.line("a\u{1B}P" + String(repeating: "q", count: EscapeSequence.maxStringBytes) + "é"),
                       "a" + String(repeating: "q", count: EscapeSequence.maxStringBytes) + "é")
        // Ended, by BEL, ST or another sequence, a string still goes whole.
        XCTAssertEqual(TerminalText.line("a\u{1B}]0;title\u{07}b\u{1B}]8;;x\u{1B}\\c\u{1B}]0;t\u{1B}[31md"), "abcd")
    }

    /// Many introducers never ended are each removed alone, and one ended far on still goes whole: the scan resumes
    /// where the one before it stopped, so text of a megabyte of them is read once.
    func testManyIntroducersNeverEndedAreReadOnce() {
        XCTAssertEqual(TerminalText.line(String(repeating: "\u{9D}", count: 200_000) + "tail"), "tail")
        XCTAssertEqual(TerminalText.line("a\u{9D}b\u{9D}c\u{07}d"), "ad")
        let q = String(repeating: "q", count: 5_000)
        XCTAssertEqual(TerminalText.line("\u{9D}x" + q + "\u{9D}y\u{07}z"), "x" + q + "z")
        XCTAssertEqual(TerminalText.block("\u{9D}a\u{9D}b\nc\u{9D}d\u{07}e"), "ab\nce")
    }

    /// Snippets and the search index's text still remove a string never ended up to its line's end (search schema 9).
    func testTheIndexedTextStillLosesAStringNeverEndedWhole() {
        XCTAssertEqual(EscapeSequence.removed(from: "a\u{1B}]0;title\nnext"), "a\nnext")
        XCTAssertEqual(EscapeSequence.removed(from: "a\u{1B}P" + String(repeating: "q", count: EscapeSequence.maxStringBytes) + "é"), "aqqé")
    }

    func testControlsAndDELGoAndLinesStayOneLine() {
        XCTAssertEqual(TerminalText.line("a\u{00}b\u{07}c\u{08}d\u{7F}e\u{85}f"), "abcdef")
        XCTAssertEqual(TerminalText.line("one\r\ntwo\nthree\tfour\rfive"), "one two three fourfive")
        XCTAssertEqual(TerminalText.line("a\u{2028}b"), "a b")
    }

    func testBlocksKeepTabsAndLineFeeds() {
        XCTAssertEqual(TerminalText.block("one\r\ntwo\n\tthree\u{1B}[2J\rfour"), "one\ntwo\n\tthreefour")
        XCTAssertEqual(TerminalText.block("a\u{2029}b"), "a\nb")
    }

    func testBidiOverridesAndIsolatesGo() {
        // "invoice\u{202E}fdp.exe" shows as "invoiceexe.pdf" on a terminal that honours the override.
        XCTAssertEqual(TerminalText.line("invoice\u{202E}fdp.exe"), "invoicefdp.exe")
        let all = (0x202A...0x202E).map { Character(Unicode.Scalar($0)!) } + (0x2066...0x2069).map { Character(Unicode.Scalar($0)!) }
        XCTAssertEqual(TerminalText.line("x" + String(all) + "\u{200E}\u{200F}\u{061C}y"), "xy")
    }

    func testPrintableTextOfAnyScriptIsKept() {
        for text in ["Grüße aus Köln", "שלום עולם", "日本語の件名", "emoji 🎉 ok", "tab-less plain"] {
            XCTAssertEqual(TerminalText.line(text), text)
            XCTAssertEqual(TerminalText.block(text), text)
            XCTAssertTrue(TerminalText.isSafeLine(text))
        }
        XCTAssertFalse(TerminalText.isSafeLine("a\u{1B}b"))
    }

    /// JSON keeps the text, and writes what a terminal would act on as escapes the encoder leaves raw: DEL, C1
    /// controls, bidi controls, line and paragraph separators. Any other character stays as it is.
    func testJSONEscapesWhatTheEncoderLeavesRaw() throws {
        let text = "a\u{7F}b\u{9B}2J\u{202E}gpj\u{2066}\u{2028}é日😀\u{200B}"
        let data = try JSONEncoder().encode([text])
        let escaped = TerminalText.jsonEscaped(String(decoding: data, as: UTF8.self))
        XCTAssertEqual(escaped, #"["a\u007Fb\u009B2J\u202Egpj\u2066\u2028é日😀"# + "\u{200B}\"]")
        XCTAssertEqual(try JSONDecoder().decode([String].self, from: Data(escaped.utf8)), [text], "the same text to a reader")
        XCTAssertEqual(TerminalText.jsonEscaped(#"{"a":"plain"}"#), #"{"a":"plain"}"#)
    }
}
