import XCTest
@testable import MailParser

/// 8-bit header bytes no RFC 2047 word declares: valid UTF-8 is UTF-8 (RFC 6532); else the charset the message's
/// body declares when they decode cleanly in it; else Windows-1252. Before, never the body's charset: an old
/// Korean, Chinese or Russian mailer's raw subject (`Subject: 한국어` in EUC-KR) read `ÇÑ±¹¾î`.
final class UndeclaredHeaderCharsetTests: XCTestCase {
    /// A message of `headers` (raw bytes after each name) with a body part of `contentType`.
    private func message(_ headers: [(String, [UInt8])], contentType: String, body: String = "text") -> ParsedMessage {
        var raw: [UInt8] = []
        for (name, value) in headers { raw += Array("\(name): ".utf8) + value + Array("\r\n".utf8) }
        raw += Array("MIME-Version: 1.0\r\nContent-Type: \(contentType)\r\n\r\n\(body)\r\n".utf8)
        return MailParser.parse(raw)
    }

    func testUndeclaredHeaderBytesAreReadInTheSingleTextPartsCharset() {
        let koi8: [UInt8] = [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]  // Привет
        let ru = message([("Subject", koi8), ("From", koi8 + Array(" <ivan@example.ru>".utf8))],
                         contentType: "text/plain; charset=koi8-r")
        XCTAssertEqual(ru.subject, "Привет")
        XCTAssertEqual(ru.from.first?.name, "Привет")
        XCTAssertEqual(ru.from.first?.email, "ivan@example.ru")
        XCTAssertEqual(ru.header("Subject"), "Привет")
        XCTAssertEqual(ru.root.header("Subject"), "Привет")

        let kr = message([("Subject", [0xC7, 0xD1, 0xB1, 0xB9, 0xBE, 0xEE])], contentType: "text/plain; charset=\"euc-kr\"")
        XCTAssertEqual(kr.subject, "한국어")
        let jp = message([("Subject", [0x93, 0xFA, 0x96, 0x7B])], contentType: "text/html; charset=Shift_JIS")
        XCTAssertEqual(jp.subject, "日本")
    }

    func testTheTextAndHTMLPartsOfAnAlternativeDeclaringOneCharsetAreTheBodysCharset() {
        let boundary = "b1"
        let body = "--b1\r\nContent-Type: text/plain; charset=gb2312\r\n\r\nx\r\n"
            + "--b1\r\nContent-Type: text/html; charset=GB2312\r\n\r\n<p>x</p>\r\n--b1--"
        let m = message([("Subject", [0xD6, 0xD0, 0xCE, 0xC4])],
                        contentType: "multipart/alternative; boundary=\(boundary)", body: body)
        XCTAssertEqual(m.subject, "中文")

        let apart = "--b1\r\nContent-Type: text/plain; charset=koi8-r\r\n\r\nx\r\n"
            + "--b1\r\nContent-Type: text/html; charset=windows-1251\r\n\r\n<p>x</p>\r\n--b1--"
        let disagreeing = message([("Subject", [0xE9, 0x74, 0xE9])],
                                  contentType: "multipart/alternative; boundary=\(boundary)", body: apart)
        XCTAssertEqual(disagreeing.subject, "été")  // no one charset: Windows-1252 as before
    }

    func testUTF8StaysUTF8AndBytesNotCleanInTheBodysCharsetAreWindows1252() {
        let utf8 = message([("Subject", Array("Привет".utf8))], contentType: "text/plain; charset=koi8-r")
        XCTAssertEqual(utf8.subject, "Привет")
        let latin = message([("Subject", [0xE9, 0x74, 0xE9])], contentType: "text/plain; charset=euc-kr")
        XCTAssertEqual(latin.subject, "été")
        let plain = message([("Subject", [0xE9, 0x74, 0xE9])], contentType: "text/plain; charset=us-ascii")
        XCTAssertEqual(plain.subject, "été")
        let wide = message([("Subject", [0xE9, 0x74, 0xE9])], contentType: "text/plain; charset=utf-16")
        XCTAssertEqual(wide.subject, "été")
        // An encoded word says its own charset; the raw bytes beside it are read in the body's.
        var mixed: [UInt8] = Array("=?UTF-8?B?w6l0w6k=?= ".utf8)
        mixed += [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]
        XCTAssertEqual(message([("Subject", mixed)], contentType: "text/plain; charset=koi8-r").subject, "été Привет")
    }
}
