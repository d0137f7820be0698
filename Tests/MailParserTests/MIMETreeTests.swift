import XCTest
@testable import MailParser

final class MIMETreeTests: XCTestCase {
    func testDefaultsForMissingContentType() {
        let m = parse("Subject: x\n\nhello")
        XCTAssertEqual(m.root.contentType, "text/plain")
        XCTAssertEqual(m.root.transferEncoding, .sevenBit)
        XCTAssertTrue(m.root.children.isEmpty)
        XCTAssertEqual(m.textBody, "hello")
    }

    func testMultipartAlternativePrefersPlainAndKeepsHTML() {
        let raw = bytes("""
        Content-Type: multipart/alternative; boundary="alt"

        preamble is ignored
        --alt
        Content-Type: text/html; charset=utf-8

        <p>Hello <b>HTML</b></p>
        --alt
        Content-Type: text/plain; charset=utf-8

        Hello plain
        --alt--
        epilogue is ignored
        """)
        let m = MailParser.parse(raw)
        XCTAssertEqual(m.root.contentType, "multipart/alternative")
        XCTAssertEqual(m.root.children.map(\.contentType), ["text/html", "text/plain"])
        XCTAssertEqual(m.textBody, "Hello plain")
        XCTAssertEqual(m.htmlBody, "<p>Hello <b>HTML</b></p>")
        XCTAssertEqual(m.snippet, "Hello plain")
        // Body ranges point into the input (CRLF before the delimiter excluded).
        let plain = m.root.children[1]
        XCTAssertEqual(Array(raw[plain.bodyRange]), Array("Hello plain".utf8))
        XCTAssertEqual(plain.header("content-type"), "text/plain; charset=utf-8")
        XCTAssertEqual(m.warnings.map(\.code), [.missingDate])
    }

    func testNestedMultipartWithEmbeddedMessage() {
        let m = parse("""
        From: outer@example.com
        Subject: outer
        Content-Type: multipart/mixed; boundary=outer

        --outer
        Content-Type: multipart/alternative; boundary=inner

        --inner
        Content-Type: text/plain

        outer text
        --inner
        Content-Type: text/html

        <div>outer html</div>
        --inner--
        --outer
        Content-Type: message/rfc822
        Content-Disposition: attachment; filename="fwd.eml"

        From: Inner Person <inner@example.com>
        Subject: =?utf-8?q?inner_subj=C3=A9ct?=
        Date: Mon, 1 Jan 2024 00:00:00 +0000
        Content-Type: multipart/mixed; boundary=deep

        --deep
        Content-Type: text/plain

        inner text
        --deep
        Content-Type: image/png; name=pic.png
        Content-Transfer-Encoding: base64

        iVBORw0KGgo=
        --deep--
        --outer--
        """)
        XCTAssertEqual(m.root.children.count, 2)
        XCTAssertEqual(m.root.children[0].children.count, 2)
        let msgPart = m.root.children[1]
        XCTAssertEqual(msgPart.contentType, "message/rfc822")
        let inner = try? XCTUnwrap(msgPart.embedded)
        XCTAssertEqual(inner?.subject, "inner subjéct")
        XCTAssertEqual(inner?.from.first?.email, "inner@example.com")
        XCTAssertEqual(inner?.date, utc(2024, 1, 1))
        XCTAssertEqual(inner?.textBody, "inner text")
        XCTAssertEqual(inner?.attachments.first?.filename, "pic.png")
        XCTAssertEqual(inner?.attachments.first?.size, 8)
        XCTAssertEqual(m.textBody, "outer text")
        XCTAssertEqual(m.htmlBody, "<div>outer html</div>")
        XCTAssertEqual(m.attachments.map(\.mimeType), ["message/rfc822"])
        XCTAssertEqual(m.attachments.first?.filename, "fwd.eml")
    }

    func testDigestDefaultsToMessageRFC822() {
        let m = parse("""
        Content-Type: multipart/digest; boundary=d

        --d

        Subject: first
        From: a@x.y

        one
        --d

        Subject: second

        two
        --d--
        """)
        XCTAssertEqual(m.root.children.map(\.contentType), ["message/rfc822", "message/rfc822"])
        XCTAssertEqual(m.root.children.map { $0.embedded?.subject }, ["first", "second"])
        XCTAssertEqual(m.root.children[1].embedded?.textBody, "two")
    }

    func testBase64AndQuotedPrintableBodies() {
        let m = parse("""
        Content-Type: multipart/mixed; boundary=b

        --b
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: quoted-printable

        Gr=C3=BC=C3=9Fe, soft=
         break and bad =ZZ escape=20
        line two  \n--b
        Content-Type: text/html; charset=utf-8
        Content-Transfer-Encoding: base64

        PHA+SMOp
        bGxvPC9w
        Pg
        --b--
        """)
        XCTAssertEqual(m.textBody, "Grüße, soft break and bad =ZZ escape \nline two")
        XCTAssertEqual(m.htmlBody, "<p>Héllo</p>")
        XCTAssertTrue(hasWarning(m, .badEncoding))
    }

    func testBase64WithGarbageAndMissingPadding() {
        let m = parse("""
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: BASE64

        SGVs bG8g
        V29y!!bGQ
        """)
        XCTAssertEqual(m.textBody, "Hello World")
        XCTAssertTrue(hasWarning(m, .badEncoding))
    }

    func testEightBitBinaryAndUnknownEncodings() {
        var raw = Array("Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n".utf8)
        raw += [0x63, 0x61, 0x66, 0xE9]
        XCTAssertEqual(MailParser.parse(raw).textBody, "café")

        let bin = parse("Content-Type: text/plain\nContent-Transfer-Encoding: binary\n\nraw=41")
        XCTAssertEqual(bin.root.transferEncoding, .binary)
        XCTAssertEqual(bin.textBody, "raw=41")

        let unknown = parse("Content-Type: text/plain\nContent-Transfer-Encoding: x-uuencode\n\nraw=41")
        XCTAssertEqual(unknown.root.transferEncoding, .other("x-uuencode"))
        XCTAssertEqual(unknown.textBody, "raw=41")
        XCTAssertTrue(hasWarning(unknown, .unknownTransferEncoding))
    }

    func testBoundaryNeverFoundIsOneTextPart() {
        let m = parse("""
        Content-Type: multipart/mixed; boundary=missing

        just some text
        --other
        more
        """)
        XCTAssertTrue(hasWarning(m, .brokenBoundary))
        XCTAssertEqual(m.root.contentType, "text/plain")
        XCTAssertTrue(m.root.children.isEmpty)
        XCTAssertEqual(m.textBody, "just some text\n--other\nmore")
    }

    func testMultipartWithoutBoundaryParameter() {
        let m = parse("Content-Type: multipart/mixed\n\ntext body")
        XCTAssertTrue(hasWarning(m, .brokenBoundary))
        XCTAssertEqual(m.textBody, "text body")
    }

    func testMissingCloseDelimiter() {
        let m = parse("""
        Content-Type: multipart/mixed; boundary=b

        --b
        Content-Type: text/plain

        first
        --b
        Content-Type: application/octet-stream; name=a.bin

        data till the end
        """)
        XCTAssertTrue(hasWarning(m, .brokenBoundary))
        XCTAssertEqual(m.root.children.count, 2)
        XCTAssertEqual(m.textBody, "first")
        XCTAssertEqual(m.attachments.first?.size, "data till the end".utf8.count)
    }

    func testBoundaryPrefixOfLongerLineIsNotADelimiter() {
        let m = parse("""
        Content-Type: multipart/mixed; boundary=abc

        --abc
        Content-Type: multipart/alternative; boundary=abc-1

        --abc-1
        Content-Type: text/plain

        inner plain
        --abc-1--
        --abc--
        """)
        XCTAssertEqual(m.root.children.count, 1)
        XCTAssertEqual(m.root.children[0].children.count, 1)
        XCTAssertEqual(m.textBody, "inner plain")
    }

    func testPartWithoutHeadersDefaultsToTextPlain() {
        let m = parse("""
        Content-Type: multipart/mixed; boundary=b

        --b

        no headers here
        --b--
        """)
        XCTAssertEqual(m.root.children.first?.contentType, "text/plain")
        XCTAssertEqual(m.textBody, "no headers here")
        XCTAssertFalse(hasWarning(m, .noHeaderBodySeparator))
    }

    func testDecodedBodyAccessors() {
        let raw = bytes("""
        Content-Type: multipart/mixed; boundary=b

        --b
        Content-Type: application/octet-stream; name=x.bin
        Content-Transfer-Encoding: base64

        AAEC/w==
        --b--
        """)
        let m = MailParser.parse(raw)
        let part = m.root.children[0]
        XCTAssertEqual(part.decodedBody(in: raw), [0, 1, 2, 255])
        let viaRaw = raw.withUnsafeBytes { part.decodedBody(in: $0) }
        XCTAssertEqual(viaRaw, [0, 1, 2, 255])
        XCTAssertEqual(m.attachments.first?.size, 4)
        let viaRawParse = raw.withUnsafeBytes { MailParser.parse($0, fallbackDate: nil) }
        XCTAssertEqual(viaRawParse.attachments, m.attachments)
    }

    func testUTF16TextPart() {
        var raw = Array("Content-Type: text/plain; charset=utf-16le\r\nContent-Transfer-Encoding: binary\r\n\r\n".utf8)
        raw += [0x48, 0x00, 0x69, 0x00]
        XCTAssertEqual(MailParser.parse(raw).textBody, "Hi")
    }

    func testHTMLCharsetSniffedFromMeta() {
        var raw = Array("Content-Type: text/html\r\n\r\n<meta charset=\"koi8-r\"><p>".utf8)
        raw += [0xF0, 0xD2, 0xC9]
        let m = MailParser.parse(raw)
        XCTAssertEqual(m.htmlBody, "<meta charset=\"koi8-r\"><p>При")
        XCTAssertEqual(m.snippet, "При")
    }
}
