import Foundation
import MailParser
import MessageComposer
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
}
