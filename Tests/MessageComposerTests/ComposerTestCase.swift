import Foundation
import MailParser
import MessageComposer
import TestSupport
import XCTest

/// Helpers shared by the composer tests: a fixed date and people, and checks every composed message must pass.
class ComposerTestCase: XCTestCase {
    /// 2026-11-16 10:00:00 UTC.
    static let date = Date(timeIntervalSince1970: 1_794_823_200)
    static let utc = TimeZone(secondsFromGMT: 0)!
    static let alice = MailAddress(name: "Alice Example", email: "alice@example.com")
    static let bob = MailAddress(name: "Bob", email: "bob@example.org")
    static let carol = MailAddress(name: nil, email: "carol@example.net")
    static let dave = MailAddress(name: "Dave Hidden", email: "dave@example.com")

    /// A draft from Alice to Bob, Cc Carol, Bcc Dave, at ``date``.
    func draft(subject: String = "Lunch", text: String = "Hello Bob,\nsee you.\n", attachments: [DraftAttachment] = [],
               allowsEightBit: Bool = true) -> MessageDraft {
        MessageDraft(from: Self.alice, to: [Self.bob], cc: [Self.carol], bcc: [Self.dave], subject: subject, text: text,
                     attachments: attachments, date: Self.date, timeZone: Self.utc, allowsEightBit: allowsEightBit)
    }

    /// The header section of `message` as text, folded lines kept.
    func headerText(_ message: [UInt8]) -> String {
        let text = String(decoding: message, as: UTF8.self)
        return String(text[..<(text.range(of: "\r\n\r\n")?.lowerBound ?? text.endIndex)])
    }

    /// `text` with its folded lines joined (CRLF before a space or tab removed).
    func unfolded(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: "\t")
    }

    /// Checks what holds for every message: CRLF only, lines within 998 bytes (header lines within
    /// 78 where they have a space to fold at), no Bcc (but in a filed copy, `bcc`), and no defect Python notices.
    func assertWellFormed(_ message: [UInt8], bcc: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        for (index, byte) in message.enumerated() where byte == 0x0A {
            XCTAssertTrue(index > 0 && message[index - 1] == 0x0D, "bare LF at \(index)", file: file, line: line)
        }
        let lines = String(decoding: message, as: UTF8.self).components(separatedBy: "\r\n")
        for text in lines {
            XCTAssertLessThanOrEqual(text.utf8.count, 998, "line too long: \(text.prefix(80))", file: file, line: line)
        }
        for header in headerText(message).components(separatedBy: "\r\n") {
            XCTAssertLessThanOrEqual(header.utf8.count, 78, "header line not folded: \(header)", file: file, line: line)
            if !bcc { XCTAssertFalse(header.lowercased().hasPrefix("bcc:"), "Bcc in the header", file: file, line: line) }
        }
        let python = try PythonEmailOracle.read(message)
        XCTAssertEqual(python.defects, [], file: file, line: line)
        XCTAssertEqual(python.hasBcc, bcc, file: file, line: line)
    }

    /// The parts of `parsed` that carry a file name, decoded.
    func files(_ parsed: ParsedMessage, in message: [UInt8]) -> [(name: String?, type: String, bytes: [UInt8])] {
        var found: [(String?, String, [UInt8])] = []
        var pending = [parsed.root]
        while let part = pending.popLast() {
            if part.filename != nil { found.append((part.filename, part.contentType, part.decodedBody(in: message))) }
            pending += part.children.reversed()
        }
        return found
    }
}
