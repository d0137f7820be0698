import Foundation
import MailParser
import CorpusGenerator
import MessageComposer
import TestSupport
import XCTest

/// Messages built from drafts, read back by mailstore's parser and by Python's email package.
final class ComposeTests: ComposerTestCase {
    func testASimpleMessageHasEveryHeaderAndBccOnlyInTheEnvelope() throws {
        var generator = SplitMix64(seed: 1)
        let message = try MessageComposer.compose(draft(), using: &generator)
        let header = headerText(message.bytes)
        XCTAssertTrue(header.hasPrefix("Date: Mon, 16 Nov 2026 10:00:00 +0000\r\n"), header)
        XCTAssertTrue(header.contains("\r\nFrom: Alice Example <alice@example.com>\r\n"), header)
        XCTAssertTrue(header.contains("\r\nTo: Bob <bob@example.org>\r\n"), header)
        XCTAssertTrue(header.contains("\r\nCc: carol@example.net\r\n"), header)
        XCTAssertTrue(header.contains("\r\nSubject: Lunch\r\n"), header)
        XCTAssertTrue(header.contains("\r\nMessage-ID: <\(message.messageID)>\r\n"), header)
        XCTAssertTrue(header.contains("\r\nMIME-Version: 1.0\r\n"), header)
        XCTAssertTrue(header.contains("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit"), header)
        XCTAssertFalse(header.contains("dave"), "Bcc leaked into the header")
        XCTAssertFalse(header.contains("In-Reply-To"))
        XCTAssertTrue(message.messageID.hasSuffix("@example.com"))
        XCTAssertEqual(message.messageID.count, 32 + "@example.com".count)
        XCTAssertEqual(message.envelopeSender, "alice@example.com")
        XCTAssertEqual(message.envelopeRecipients, ["bob@example.org", "carol@example.net", "dave@example.com"])
        XCTAssertTrue(String(decoding: message.bytes, as: UTF8.self).hasSuffix("\r\n\r\nHello Bob,\r\nsee you.\r\n"))

        var again = SplitMix64(seed: 1)
        XCTAssertEqual(try MessageComposer.compose(draft(), using: &again), message, "not deterministic for a seed")
        XCTAssertNotEqual(try MessageComposer.compose(draft()).messageID, try MessageComposer.compose(draft()).messageID)

        let parsed = MailParser.parse(message.bytes)
        XCTAssertEqual(parsed.subject, "Lunch")
        XCTAssertEqual(parsed.from, [Self.alice])
        XCTAssertEqual(parsed.to, [Self.bob])
        XCTAssertEqual(parsed.cc, [Self.carol])
        XCTAssertEqual(parsed.bcc, [])
        XCTAssertEqual(parsed.messageID, message.messageID)
        XCTAssertEqual(parsed.date, Self.date)
        XCTAssertEqual(parsed.textBody, "Hello Bob,\nsee you.\n")
        XCTAssertEqual(parsed.warnings, [])
        try assertWellFormed(message.bytes)
    }

    func testTheFiledCopyHasTheBccFieldAndTheSubmittedBytesNever() throws {
        var generator = SplitMix64(seed: 1)
        let message = try MessageComposer.compose(draft(), using: &generator)
        let copy = message.filedCopy
        let header = headerText(copy)
        XCTAssertTrue(header.contains("\r\nCc: carol@example.net\r\nBcc: Dave Hidden <dave@example.com>\r\nSubject: Lunch\r\n"), header)
        XCTAssertFalse(headerText(message.bytes).contains("Bcc"), "Bcc in the bytes submitted")
        XCTAssertEqual(MailParser.parse(copy).bcc, [Self.dave])
        XCTAssertEqual(MailParser.parse(copy).messageID, message.messageID)
        // The rest byte for byte the same.
        XCTAssertEqual(copy.count, message.bytes.count + message.bccField.count)
        XCTAssertEqual(Array(copy[(message.bccOffset + message.bccField.count)...]), Array(message.bytes[message.bccOffset...]))
        try assertWellFormed(copy, bcc: true)
        var none = draft()
        none.bcc = []
        let plain = try MessageComposer.compose(none, using: &generator)
        XCTAssertEqual(plain.filedCopy, plain.bytes)
    }

    /// An address beyond ASCII is the only raw UTF-8 a header gets (names and the subject are encoded words); the copy
    /// for an IMAP server that has not enabled UTF8=ACCEPT has it downgraded as RFC 6857 says: `Name <address>` as
    /// encoded words naming an empty group. Every other byte is the filed copy's. Until 2026-12-07 there was only the
    /// 8-bit copy, and Cyrus wrote an X for each byte beyond ASCII (`jXXrg@bXXcher.example`).
    func testTheSevenBitCopyDowngradesAddressesBeyondASCIIAndKeepsTheRest() throws {
        var d = draft(subject: "Grüße", text: "Hallo Jörg,\nbis bald.\n")
        d.to = [MailAddress(name: "Jörg Müller", email: "jörg@bücher.example"), Self.bob]
        d.bcc = [MailAddress(name: nil, email: "zoë@example.com")]
        var generator = SplitMix64(seed: 1)
        let message = try MessageComposer.compose(d, using: &generator)
        XCTAssertTrue(headerText(message.filedCopy).contains("<jörg@bücher.example>"), "the filed copy keeps the address")
        let copy = message.sevenBitFiledCopy
        XCTAssertTrue(headerText(copy).unicodeScalars.allSatisfy(\.isASCII), headerText(copy))
        let body = headerText(message.filedCopy).utf8.count
        XCTAssertEqual(Array(copy[headerText(copy).utf8.count...]), Array(message.filedCopy[body...]), "the body is the same")
        let python = try PythonEmailOracle.read(copy)
        XCTAssertEqual(python.subject, "Grüße")
        XCTAssertEqual(python.from, [["Alice Example", "alice@example.com"]])
        XCTAssertEqual(python.to, [["Bob", "bob@example.org"]])
        XCTAssertEqual(python.cc, [["", "carol@example.net"]])
        XCTAssertEqual(python.groups["to"], ["Jörg Müller <jörg@bücher.example>"])
        XCTAssertEqual(python.groups["bcc"], ["zoë@example.com"])
        XCTAssertEqual(python.text.replacingOccurrences(of: "\r\n", with: "\n"), "Hallo Jörg,\nbis bald.\n")
        XCTAssertEqual(python.defects, [])
        try assertWellFormed(copy, bcc: true)
        // Without the Bcc field (a draft copy whose Bcc is not the user's), the seven-bit copy has none either.
        var noBcc = message
        noBcc.bccField = []
        XCTAssertFalse(headerText(noBcc.sevenBitFiledCopy).contains("Bcc:"))
        // A header all ASCII has no second form.
        var again = SplitMix64(seed: 1)
        let ascii = try MessageComposer.compose(draft(), using: &again)
        XCTAssertNil(ascii.sevenBitHeader)
        XCTAssertEqual(ascii.sevenBitFiledCopy, ascii.filedCopy)
    }

    func testNonASCIIHeadersAreEncodedWordsWithinTheLimits() throws {
        let subject = "Grüße aus Köln – über den Jahresabschluss 2026, die Zahlen ☕ und 日本語のテキスト 🇩🇪👨‍👩‍👧 Ende"
        let names = ["Jörg Müller", "Doe, John", "Dr. \"Quote\" \\ Backslash", "=?utf-8?q?not-an-encoded-word?=", "日本 太郎"]
        var draft = draft(subject: subject)
        draft.to = names.enumerated().map { MailAddress(name: $0.element, email: "person\($0.offset)@example.com") }
        draft.from = MailAddress(name: "Zoë Çelik", email: "zoe@example.com")
        let message = try MessageComposer.compose(draft)
        let header = headerText(message.bytes)
        let words = header.matches(of: #/=\?utf-8\?B\?[A-Za-z0-9+\/=]*\?=/#).map { String($0.output) }
        XCTAssertFalse(words.isEmpty, header)
        for word in words { XCTAssertLessThanOrEqual(word.count, 75, word) }
        XCTAssertTrue(unfolded(header).contains("\"Doe, John\" <person1@example.com>"), header)
        XCTAssertFalse(header.contains("Jörg"), "raw UTF-8 in a header: \(header)")
        try assertWellFormed(message.bytes)

        let parsed = MailParser.parse(message.bytes)
        XCTAssertEqual(parsed.subject, subject)
        XCTAssertEqual(parsed.from.first?.name, "Zoë Çelik")
        XCTAssertEqual(parsed.to.map(\.name), names)
        XCTAssertEqual(parsed.to.map(\.email), draft.to.map(\.email))

        let python = try PythonEmailOracle.read(message.bytes)
        XCTAssertEqual(python.subject, subject)
        XCTAssertEqual(python.from, [["Zoë Çelik", "zoe@example.com"]])
        XCTAssertEqual(python.to.map { $0[0] }, names)
    }

    /// Without 8-bit, text mostly beyond ASCII goes base64 (a third bigger) rather than quoted-printable (three times); mostly ASCII stays readable.
    func testTextMostlyBeyondASCIIGoesBase64WhenThatIsMuchShorter() throws {
        let text = "Привет, Йоран!\nВсего хорошего, 你好\n"
        let message = try MessageComposer.compose(draft(text: text, allowsEightBit: false))
        XCTAssertTrue(headerText(message.bytes).contains("Content-Transfer-Encoding: base64"))
        XCTAssertFalse(message.bytes.contains { $0 >= 0x80 })
        XCTAssertEqual(MailParser.parse(message.bytes).textBody, text)
        XCTAssertEqual(try PythonEmailOracle.read(message.bytes).text.replacingOccurrences(of: "\r\n", with: "\n"), text)
        try assertWellFormed(message.bytes)
        // Mostly ASCII stays quoted-printable, readable.
        let latin = try MessageComposer.compose(draft(text: "Grüße aus Köln\n", allowsEightBit: false))
        XCTAssertTrue(headerText(latin.bytes).contains("Content-Transfer-Encoding: quoted-printable"))
    }

    func testHeaderInjectionThroughTheSubjectOrANameIsImpossible() throws {
        var draft = draft(subject: "Hi\r\nBcc: evil@example.com")
        draft.to = [MailAddress(name: "Bob\r\nX-Evil: 1", email: "bob@example.org")]
        let message = try MessageComposer.compose(draft)
        let header = headerText(message.bytes)
        XCTAssertFalse(header.contains("\r\nBcc:"), header)
        XCTAssertFalse(header.contains("\r\nX-Evil"), header)
        XCTAssertEqual(MailParser.parse(message.bytes).subject, "Hi  Bcc: evil@example.com")
    }

    func testTheBodyIs8BitOrQuotedPrintableAsItNeeds() throws {
        let text = "Grüße,\n\nein Satz mit Ümlauten und Leerzeichen am Ende   \n=Gleich= am Anfang\n.\nEnde ☕\n"
        let eightBit = try MessageComposer.compose(draft(text: text))
        XCTAssertTrue(headerText(eightBit.bytes).contains("Content-Transfer-Encoding: 8bit"))
        let quoted = try MessageComposer.compose(draft(text: text, allowsEightBit: false))
        XCTAssertTrue(headerText(quoted.bytes).contains("Content-Transfer-Encoding: quoted-printable"))
        XCTAssertFalse(quoted.bytes.contains { $0 >= 0x80 }, "8-bit bytes in a quoted-printable message")
        let long = String(repeating: "Ä lange Zeile ohne Umbruch, ", count: 60) + "Ende.\n"
        let longLine = try MessageComposer.compose(draft(text: long))
        XCTAssertTrue(headerText(longLine.bytes).contains("Content-Transfer-Encoding: quoted-printable"))
        let longASCII = try MessageComposer.compose(draft(text: String(repeating: "x", count: 2000) + "\n"))
        XCTAssertTrue(headerText(longASCII.bytes).contains("Content-Transfer-Encoding: quoted-printable"))

        for (message, original) in [(eightBit, text), (quoted, text), (longLine, long)] {
            let body = String(decoding: message.bytes, as: UTF8.self).components(separatedBy: "\r\n\r\n").dropFirst().joined()
            for line in body.components(separatedBy: "\r\n") where message != eightBit {
                XCTAssertLessThanOrEqual(line.utf8.count, 76, line)
            }
            XCTAssertEqual(MailParser.parse(message.bytes).textBody, original)
            XCTAssertEqual(try PythonEmailOracle.read(message.bytes).text.replacingOccurrences(of: "\r\n", with: "\n"), original)
            try assertWellFormed(message.bytes)
        }
    }

    func testAttachmentsAreBase64PartsWithTheirNames() throws {
        let binary = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let longName = "Prüfbericht für das Geschäftsjahr 2026 – endgültige Fassung (überarbeitet, Kopie).pdf"
        let attachments = [
            DraftAttachment(filename: "data.bin", mimeType: "application/octet-stream", data: binary),
            DraftAttachment(filename: longName, mimeType: "application/pdf", data: Array("%PDF-1.4 fake".utf8)),
            DraftAttachment(filename: "say \"hi\".txt", mimeType: "not a type", data: Array("hi\n".utf8)),
            DraftAttachment(filename: "empty.txt", mimeType: "text/plain", data: []),
        ]
        let text = "Files attached.\n"
        let message = try MessageComposer.compose(draft(subject: "Dateien für dich", text: text, attachments: attachments))
        let textual = String(decoding: message.bytes, as: UTF8.self)
        let unfoldedText = unfolded(textual)
        XCTAssertTrue(unfolded(headerText(message.bytes)).contains("Content-Type: multipart/mixed; boundary=\"=_mailstore_"))
        XCTAssertTrue(unfoldedText.contains("filename*0*=utf-8''Pr%C3%BCfbericht"), textual)
        XCTAssertTrue(unfoldedText.contains("Content-Type: application/octet-stream; name=\"say \\\"hi\\\".txt\""), textual)
        let base64Lines = textual.components(separatedBy: "\r\n").filter { $0.count > 40 && !$0.contains(" ") && !$0.contains(":") }
        XCTAssertFalse(base64Lines.isEmpty)
        XCTAssertTrue(base64Lines.allSatisfy { $0.count <= 76 })
        XCTAssertTrue(base64Lines.contains { $0.count == 76 })
        try assertWellFormed(message.bytes)

        let parsed = MailParser.parse(message.bytes)
        XCTAssertEqual(parsed.subject, "Dateien für dich")
        XCTAssertEqual(parsed.textBody, text)
        let found = files(parsed, in: message.bytes)
        XCTAssertEqual(found.map(\.name), attachments.map(\.filename))
        XCTAssertEqual(found.map(\.bytes), attachments.map(\.data))
        XCTAssertEqual(found.map(\.type), ["application/octet-stream", "application/pdf", "application/octet-stream", "text/plain"])
        XCTAssertEqual(parsed.attachments.map(\.filename), attachments.map(\.filename))

        let python = try PythonEmailOracle.read(message.bytes)
        XCTAssertEqual(python.text.replacingOccurrences(of: "\r\n", with: "\n"), text)
        XCTAssertEqual(python.attachments.map(\.filename), attachments.map(\.filename))
        XCTAssertEqual((0..<attachments.count).map { python.bytes(ofAttachment: $0) }, attachments.map(\.data))
    }

    /// A text attachment forwarded from a stored message went without its charset (read as US-ASCII or UTF-8): it is
    /// named on the part's type, unquoted, the bytes unchanged; one that is no RFC 2045 token of at most 64 bytes, or on
    /// a type that is not text, is left out (it comes from a sender, and a draft's event may hold anything).
    func testATextAttachmentNamesItsCharsetAndABadOneIsLeftOut() throws {
        let latin1: [UInt8] = Array("Gr".utf8) + [0xFC, 0xDF, 0x65] + Array(" aus K".utf8) + [0xF6, 0x6C, 0x6E, 0x0D, 0x0A]
        let sjis: [UInt8] = [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x0D, 0x0A]
        let attachments = [
            DraftAttachment(filename: "latin1.txt", mimeType: "text/plain", data: latin1, charset: "ISO-8859-1"),
            DraftAttachment(filename: "sjis.txt", mimeType: "text/plain", data: sjis, charset: "shift_jis"),
            DraftAttachment(filename: "quoted.txt", mimeType: "text/plain", data: latin1, charset: "iso-8859-1\"; x=\"y"),
            DraftAttachment(filename: "long.txt", mimeType: "text/plain", data: latin1, charset: String(repeating: "a", count: 65)),
            DraftAttachment(filename: "crlf.txt", mimeType: "text/plain", data: latin1, charset: "utf-8\r\nBcc: eve@example.net"),
            DraftAttachment(filename: "data.bin", mimeType: "application/octet-stream", data: latin1, charset: "iso-8859-1"),
        ]
        let message = try MessageComposer.compose(draft(attachments: attachments))
        try assertWellFormed(message.bytes)
        let text = unfolded(String(decoding: message.bytes, as: UTF8.self))
        XCTAssertTrue(text.contains("Content-Type: text/plain; charset=iso-8859-1; name=\"latin1.txt\"\r\n"), text)
        XCTAssertTrue(text.contains("Content-Type: text/plain; charset=shift_jis; name=\"sjis.txt\"\r\n"), text)
        for name in ["quoted.txt", "long.txt", "crlf.txt"] {
            XCTAssertTrue(text.contains("Content-Type: text/plain; name=\"\(name)\"\r\n"), text)
        }
        XCTAssertTrue(text.contains("Content-Type: application/octet-stream; name=\"data.bin\"\r\n"), text)
        XCTAssertFalse(text.contains("eve@example.net"), text)
        let python = try PythonEmailOracle.read(message.bytes)
        XCTAssertEqual(python.attachments.map(\.charset), ["iso-8859-1", "shift_jis", nil, nil, nil, nil])
        XCTAssertEqual((0..<attachments.count).map { python.bytes(ofAttachment: $0) }, attachments.map(\.data))
    }

    func testAReplyCarriesItsThreadingHeaders() throws {
        let parent = ParentMessage(messageID: "parent@example.org", references: ["root@example.org", "<middle@example.org>"],
                                   subject: "Aw: Plan", from: [Self.bob], date: Self.date, text: "Shall we?\n")
        let threading = MessageComposer.replyThreading(to: parent)
        var draft = draft(subject: MessageComposer.replySubject(parent.subject ?? ""),
                          text: "Yes.\n\n" + MessageComposer.quotedBody(of: parent, timeZone: Self.utc))
        draft.inReplyTo = threading.inReplyTo
        draft.references = threading.references
        let message = try MessageComposer.compose(draft)
        let header = headerText(message.bytes)
        XCTAssertTrue(header.contains("\r\nSubject: Re: Plan\r\n"), header)
        XCTAssertTrue(header.contains("\r\nIn-Reply-To: <parent@example.org>\r\n"), header)
        XCTAssertTrue(header.contains("\r\nReferences: <root@example.org> <middle@example.org> <parent@example.org>\r\n"), header)
        try assertWellFormed(message.bytes)
        let parsed = MailParser.parse(message.bytes)
        XCTAssertEqual(parsed.inReplyTo, ["parent@example.org"])
        XCTAssertEqual(parsed.references, ["root@example.org", "middle@example.org", "parent@example.org"])
        XCTAssertEqual(parsed.textBody, "Yes.\n\nOn Mon, 16 Nov 2026 10:00:00 +0000, Bob wrote:\n> Shall we?\n")
        let python = try PythonEmailOracle.read(message.bytes)
        XCTAssertEqual(python.inReplyTo, "<parent@example.org>")
        XCTAssertEqual(python.references, "<root@example.org> <middle@example.org> <parent@example.org>")
    }

    func testALongReferencesChainIsFolded() throws {
        var draft = draft()
        draft.references = (0..<30).map { "message-\($0)-with-a-long-id@lists.example.org" }
        let message = try MessageComposer.compose(draft)
        try assertWellFormed(message.bytes)
        XCTAssertEqual(MailParser.parse(message.bytes).references, draft.references)
    }

    func testAnUnusableDraftIsRefusedWithTheFieldsToFix() throws {
        var bad = draft()
        bad.from = MailAddress(name: "Alice", email: "alice")
        bad.cc = [MailAddress(name: nil, email: "carol@"), Self.carol]
        XCTAssertThrowsError(try MessageComposer.compose(bad)) { error in
            guard case .invalidAddresses(let invalid)? = error as? ComposeError else { return XCTFail("got \(error)") }
            XCTAssertEqual(invalid.map(\.field), [.from, .cc])
            XCTAssertEqual(invalid.map(\.entry), ["alice", "carol@"])
        }
        var nobody = draft()
        (nobody.to, nobody.cc, nobody.bcc) = ([], [], [])
        XCTAssertThrowsError(try MessageComposer.compose(nobody)) { XCTAssertEqual($0 as? ComposeError, .noRecipients) }
        var domain = draft()
        domain.messageIDDomain = "exa mple.com"
        XCTAssertThrowsError(try MessageComposer.compose(domain)) {
            XCTAssertEqual($0 as? ComposeError, .invalidMessageIDDomain("exa mple.com"))
        }
    }

    /// What fuzz-compose found (2026-12-02): text that read back otherwise than it was written, and lines past 998 bytes.
    func testHeaderTextReadsBackAsWrittenAndEveryLineFits() throws {
        // A fold at a double space: RFC 5322's unfolding keeps both spaces, a reader collapsing folding white space
        // (mailstore's parser) kept one. Folds now go only at single spaces.
        let doubled = "Quarterly numbers " + String(repeating: "a", count: 42) + "  " + String(repeating: "b", count: 20) + " end"
        var message = try MessageComposer.compose(draft(subject: doubled))
        XCTAssertEqual(MailParser.parse(message.bytes).subject, doubled)
        XCTAssertEqual(try PythonEmailOracle.read(message.bytes).subject, doubled)
        try assertWellFormed(message.bytes)
        // A word no fold can cut (over 998 bytes), and a display name as long, go as encoded words.
        let word = "x" + String(repeating: "y", count: 1_200)
        var long = draft(subject: "Re: " + word)
        long.to = [MailAddress(name: String(repeating: "Name ", count: 200), email: "bob@example.org")]
        message = try MessageComposer.compose(long)
        let lines = String(decoding: message.bytes, as: UTF8.self).components(separatedBy: "\r\n")
        XCTAssertLessThanOrEqual(lines.map(\.utf8.count).max() ?? 0, 998)
        XCTAssertEqual(MailParser.parse(message.bytes).subject, "Re: " + word)
        XCTAssertEqual(MailParser.parse(message.bytes).to.first?.name, String(repeating: "Name ", count: 200).trimmingCharacters(in: .whitespaces))
        // A file name with `=?` goes in RFC 2231 form: quoted, readers decode it as an encoded word.
        let name = "=?utf-8?q?not_a_word?= notes.txt"
        message = try MessageComposer.compose(draft(attachments: [DraftAttachment(filename: name, mimeType: "text/plain", data: [0x61])]))
        XCTAssertEqual(MailParser.parse(message.bytes).attachments.map(\.filename), [name])
        // A media type past RFC 6838's 127 characters a name goes as application/octet-stream.
        let type = "text/" + String(repeating: "x", count: 1_200)
        message = try MessageComposer.compose(draft(attachments: [DraftAttachment(filename: "a.txt", mimeType: type, data: [0x61])]))
        XCTAssertLessThanOrEqual(String(decoding: message.bytes, as: UTF8.self).components(separatedBy: "\r\n").map(\.utf8.count).max() ?? 0, 998)
        XCTAssertTrue(String(decoding: message.bytes, as: UTF8.self).contains("Content-Type: application/octet-stream"))
        // A reference id that cannot fit a line is left out rather than written past 998 bytes.
        var reply = draft()
        reply.inReplyTo = String(repeating: "a", count: 950) + "@example.org"
        reply.references = [reply.inReplyTo!, "short@example.org"]
        message = try MessageComposer.compose(reply)
        XCTAssertFalse(headerText(message.bytes).contains("In-Reply-To"))
        XCTAssertTrue(unfolded(headerText(message.bytes)).contains("References: <short@example.org>"))
    }

    /// RFC 5321's limits: an address over 254 bytes or with a local part over 64 cannot be sent (nor fit a line).
    func testAnAddressPastSMTPsLimitsIsRefused() {
        XCTAssertNotNil(AddressList.problem(with: String(repeating: "a", count: 65) + "@example.org"))
        XCTAssertNil(AddressList.problem(with: String(repeating: "a", count: 64) + "@example.org"))
        let domain = (0..<5).map { _ in String(repeating: "d", count: 60) }.joined(separator: ".")
        XCTAssertNotNil(AddressList.problem(with: "a@" + domain))
        XCTAssertNil(AddressList.problem(with: "a@" + domain.prefix(250)))
        // A quoted local part must be one quoted string (found by fuzz-compose: `""""/""""@x` read back otherwise).
        XCTAssertNil(AddressList.problem(with: "\"john..smith\"@example.org"))
        XCTAssertNil(AddressList.problem(with: "\"a\\\"b\"@example.org"))
        XCTAssertNotNil(AddressList.problem(with: "\"\"\"\"/\"\"\"\"@example.org"))
        XCTAssertNotNil(AddressList.problem(with: "\"a\\\"@example.org"))
        // A combining mark after a quote, a dot or an @ makes one character of them; the checks read scalars (found by
        // fuzz-compose: `b"\u{035C}ol@example.org` had passed and read back as another address).
        XCTAssertNotNil(AddressList.problem(with: "b\u{FFFD}\"\u{035C}ol@example.org"))
        XCTAssertNotNil(AddressList.problem(with: "\"\u{035C}ab\"\u{035C}@example.org"))
        XCTAssertNotNil(AddressList.problem(with: "a..\u{0301}b@example.org"))
        XCTAssertNotNil(AddressList.problem(with: "a<\u{0301}b@example.org"))
        XCTAssertNil(AddressList.problem(with: "jos\u{00E9}.\u{0301}a@example.org"))
        // A huge address is refused by its length (checked on the bytes before anything is collected).
        XCTAssertEqual(AddressList.problem(with: String(repeating: "a", count: 10_000_000) + "@example.org"), "it is longer than 254 bytes")
        XCTAssertEqual(AddressList.problem(with: String(repeating: "a", count: 300)), "it has no @")
    }

    func testOnlyBccRecipientsGiveAnUndisclosedTo() throws {
        var draft = draft()
        (draft.to, draft.cc) = ([], [])
        let message = try MessageComposer.compose(draft)
        XCTAssertTrue(headerText(message.bytes).contains("\r\nTo: undisclosed-recipients:;\r\n"))
        XCTAssertEqual(message.envelopeRecipients, ["dave@example.com"])
        XCTAssertEqual(MailParser.parse(message.bytes).to, [])
        try assertWellFormed(message.bytes)
    }
}
