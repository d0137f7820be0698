import Foundation
import MailParser
import MessageComposer
import TestSupport
import XCTest

/// The transfer encoding each part gets: never one that the part's bytes break (RFC 2045 §2.7-2.8: no NUL in 7bit or
/// 8bit data; RFC 2046 §5.2.1: an attached message only 7bit, 8bit or binary), checked with Python's reading.
final class TransferEncodingTests: ComposerTestCase {
    /// A NUL went out raw as 7bit (and 8bit): Cyrus refused the Sent copy ("Message contains NUL characters"), Dovecot
    /// changed the byte. Text holding one goes quoted-printable (`=00`), and reads back as written.
    func testATextWithANULGoesQuotedPrintableAndReadsBack() throws {
        let texts = ["nul\u{0}here\nesc\u{1B}[31m\n", "caf\u{E9} \u{0}\n", "\u{0}"]
        for allowsEightBit in [true, false] {
            for text in texts {
                let message = try MessageComposer.compose(draft(text: text, allowsEightBit: allowsEightBit))
                XCTAssertFalse(message.bytes.contains(0), "a NUL in the bytes sent: \(text.debugDescription)")
                XCTAssertTrue(headerText(message.bytes).contains("Content-Transfer-Encoding: quoted-printable"),
                              headerText(message.bytes))
                let expected = text.hasSuffix("\n") ? text : text + "\n"
                XCTAssertEqual(try PythonEmailOracle.read(message.bytes).text.replacingOccurrences(of: "\r\n", with: "\n"), expected)
                try assertWellFormed(message.bytes)
            }
        }
        // A control other than NUL (and CR, LF) may go 7bit: RFC 2045 §2.7 allows it.
        let escape = try MessageComposer.compose(draft(text: "esc\u{1B}[31m\n"))
        XCTAssertTrue(headerText(escape.bytes).contains("Content-Transfer-Encoding: 7bit"), headerText(escape.bytes))
    }

    /// An attached message went base64, which RFC 2046 §5.2.1 forbids for `message/rfc822`: Python read the base64
    /// text as the inner message's header. It goes 7bit (8bit where the text may), line ends made CRLF; one that no
    /// such encoding can carry (a line over 998 bytes, a NUL, 8-bit text where 8bit may not go) goes as
    /// `application/octet-stream` in base64, byte for byte.
    func testAnAttachedMessageGoes7BitOr8BitElseAsOctetStream() throws {
        let inner = "From: Bob <bob@example.org>\r\nSubject: Quarterly numbers\r\nMessage-ID: <inner@example.org>\r\n\r\nThe numbers.\r\n"
        let bareLF = "Subject: Bare\nFrom: bob@example.org\n\nline one\nline two\n"
        let eightBit = "Subject: =?utf-8?q?Gr=C3=BC=C3=9Fe?=\r\nFrom: bob@example.org\r\n\r\nGrüße\r\n"
        let attachments = [
            DraftAttachment(filename: "Quarterly numbers.eml", mimeType: "message/rfc822", data: Array(inner.utf8)),
            DraftAttachment(filename: "Bare.eml", mimeType: "message/rfc822", data: Array(bareLF.utf8)),
            DraftAttachment(filename: "Grüße.eml", mimeType: "message/rfc822", data: Array(eightBit.utf8)),
            DraftAttachment(filename: "long.eml", mimeType: "message/rfc822",
                            data: Array(("Subject: Long\r\n\r\n" + String(repeating: "x", count: 1_500) + "\r\n").utf8)),
            DraftAttachment(filename: "nul.eml", mimeType: "message/rfc822", data: Array("Subject: Nul\r\n\r\na\u{0}b\r\n".utf8)),
            DraftAttachment(filename: "parts", mimeType: "multipart/mixed", data: Array("--x\r\n\r\nhi\r\n--x--\r\n".utf8)),
        ]
        for allowsEightBit in [false, true] {
            let message = try MessageComposer.compose(draft(attachments: attachments, allowsEightBit: allowsEightBit))
            try assertWellFormed(message.bytes)
            let text = unfolded(String(decoding: message.bytes, as: UTF8.self))
            XCTAssertTrue(text.contains("Content-Type: message/rfc822; name=\"Quarterly numbers.eml\"\r\nContent-Disposition: attachment; "
                                        + "filename=\"Quarterly numbers.eml\"\r\nContent-Transfer-Encoding: 7bit\r\n\r\n" + inner), text)
            XCTAssertTrue(text.contains("Content-Transfer-Encoding: 7bit\r\n\r\n" + bareLF.replacingOccurrences(of: "\n", with: "\r\n")), text)
            let python = try PythonEmailOracle.read(message.bytes)
            XCTAssertEqual(python.attachments.map(\.type),
                           ["message/rfc822", "message/rfc822", allowsEightBit ? "message/rfc822" : "application/octet-stream",
                            "application/octet-stream", "application/octet-stream", "application/octet-stream"])
            XCTAssertEqual(python.attachments.map(\.filename), attachments.map(\.filename))
            XCTAssertEqual(python.attachments.prefix(2).map(\.innerSubject), ["Quarterly numbers", "Bare"])
            if allowsEightBit {
                XCTAssertTrue(text.contains("Content-Transfer-Encoding: 8bit\r\n\r\n" + eightBit), text)
                XCTAssertEqual(python.attachments[2].innerSubject, "Grüße")
            } else {
                XCTAssertEqual(python.bytes(ofAttachment: 2), attachments[2].data)
                XCTAssertFalse(message.bytes.contains { $0 >= 0x80 }, "8-bit bytes where 8bit may not go")
            }
            for index in 3..<attachments.count { XCTAssertEqual(python.bytes(ofAttachment: index), attachments[index].data) }
            XCTAssertFalse(message.bytes.contains(0))
        }
    }
}
