import EventModel
import Foundation
@testable import MailStore
import MailParser
import TestSupport
import XCTest

/// What a reply or a forward takes from its original into the message it sends: an attached message in an encoding
/// RFC 2046 allows and named from its subject, a subject within a draft's bound.
final class ForwardedAttachmentTests: XCTestCase {
    private var dir: TemporaryDirectory!
    private var store: MailStore!

    override func setUpWithError() throws {
        dir = TemporaryDirectory("forwarded")
        store = try MailStore.create(at: dir.file("store"))
        _ = try store.addAccount(AccountSettings(name: "home", email: "tom@example.com", host: "imap.example.com",
                                                 port: 993, security: "tls", credential: .environment("MAILSTORE_UNUSED")))
    }

    /// Imports `text` (LF line ends) into "home" and returns its email id.
    private func original(_ text: String) throws -> String {
        let url = URL(fileURLWithPath: dir.file("md/cur/1700000001.1.host:2,S"))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: url)
        var options = Importer.Options()
        options.account = "home"
        options.underServerAccount = true
        XCTAssertEqual(try Importer(store: store, options: options).importMaildir(dir.file("md")).imported, 1)
        var found: String?
        try store.log.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode() { found = p.emailID }
            return true
        }
        return try XCTUnwrap(found)
    }

    /// The bytes `draft` would be sent as.
    private func sent(_ draft: DraftSaved) throws -> [UInt8] {
        let record = try XCTUnwrap(try store.draft(id: draft.draftID))
        return try OutboxUseCase(store: store).compose(record, due: .now).bytes
    }

    /// A forward sent an attached message base64, which RFC 2046 §5.2.1 forbids (strict readers took the base64 text
    /// for its header), named `attachment-N`: it goes 7bit, named from its subject.
    func testAForwardSendsAnAttachedMessage7BitNamedFromItsSubject() throws {
        let id = try original("""
            From: Bob <bob@example.org>
            To: tom@example.com
            Subject: Papers
            Date: Mon, 15 Jan 2024 09:00:00 +0000
            Message-ID: <papers@example.org>
            MIME-Version: 1.0
            Content-Type: multipart/mixed; boundary=b1

            --b1
            Content-Type: text/plain

            See the papers.
            --b1
            Content-Type: message/rfc822
            Content-Disposition: attachment

            From: Carol <carol@example.org>
            Subject: Quarterly numbers / Q3
            Message-ID: <inner@example.org>

            The numbers.
            --b1
            Content-Type: message/rfc822
            Content-Disposition: attachment

            From: Carol <carol@example.org>
            Message-ID: <inner2@example.org>

            No subject.
            --b1--

            """)
        let (draft, problems) = try DraftsUseCase(store: store).create(account: "home", DraftInput(to: "erin@example.com", forward: id))
        XCTAssertEqual(problems, [])
        XCTAssertEqual(draft.attachments.map(\.filename), ["Quarterly numbers - Q3.eml", "attachment-2.eml"])
        let bytes = try sent(draft)
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: " ")
        XCTAssertTrue(text.contains("Content-Type: message/rfc822; name=\"Quarterly numbers - Q3.eml\"\r\n"
                                    + "Content-Disposition: attachment; filename=\"Quarterly numbers - Q3.eml\"\r\n"
                                    + "Content-Transfer-Encoding: 7bit\r\n\r\nFrom: Carol <carol@example.org>\r\n"), text)
        XCTAssertFalse(text.contains("base64"), text)
    }

    /// Forwarded attachment names were cut to 255 bytes from their end, by scalars: `"x"*300 + ".bin"` lost its
    /// extension, and a ZWJ emoji could be split. A long name keeps its extension, cut before it at a character's end.
    func testAForwardedLongNameKeepsItsExtension() throws {
        func encoded(_ name: String) -> String { "utf-8''" + name.utf8.map { String(format: "%%%02X", $0) }.joined() }
        let names = [String(repeating: "x", count: 300) + ".bin", String(repeating: "ü", count: 200) + ".txt",
                     String(repeating: "👨‍👩‍👧", count: 20) + ".txt", "a." + String(repeating: "y", count: 300), "short.pdf"]
        var text = "From: Bob <bob@example.org>\nTo: tom@example.com\nSubject: Names\nDate: Mon, 15 Jan 2024 09:00:00 +0000\n"
            + "Message-ID: <names@example.org>\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\n"
            + "Content-Type: text/plain\n\nNames.\n"
        for name in names {
            text += "--b1\nContent-Type: application/octet-stream\nContent-Disposition: attachment; filename*=\(encoded(name))\n\nx\n"
        }
        let id = try original(text + "--b1--\n")
        let (draft, _) = try DraftsUseCase(store: store).create(account: "home", DraftInput(to: "erin@example.com", forward: id))
        XCTAssertEqual(draft.attachments.map(\.filename), [
            String(repeating: "x", count: 251) + ".bin", String(repeating: "ü", count: 125) + ".txt",
            String(repeating: "👨‍👩‍👧", count: 13) + ".txt", String(names[3].prefix(255)), "short.pdf",
        ])
    }

    /// A reply's or forward's subject passed the 4,096-byte bound a typed subject is held to (a 6,000-byte original
    /// made a 6,004-byte one, saved version after version): it is cut to it at a character's end, with a note.
    func testAReplysSubjectIsCutToTheBoundWithANote() throws {
        let long = String(repeating: "é", count: 3_000)
        let id = try original("""
            From: Bob <bob@example.org>
            To: tom@example.com
            Subject: \(long)
            Date: Mon, 15 Jan 2024 09:00:00 +0000
            Message-ID: <long@example.org>

            Hello.

            """)
        let drafts = DraftsUseCase(store: store)
        for input in [DraftInput(body: "Yes.", replyTo: id), DraftInput(to: "erin@example.com", forward: id)] {
            let (draft, problems) = try drafts.create(account: "home", input)
            XCTAssertLessThanOrEqual(draft.subject.utf8.count, DraftsUseCase.maxSubjectBytes)
            XCTAssertGreaterThan(draft.subject.utf8.count, DraftsUseCase.maxSubjectBytes - 2)
            XCTAssertTrue(draft.subject.hasPrefix(input.replyTo != nil ? "Re: éé" : "Fwd: éé"), draft.subject)
            XCTAssertFalse(draft.subject.contains("\u{FFFD}"))
            XCTAssertTrue(problems.contains { $0.contains("the subject was cut to 4096 bytes") }, "\(problems)")
            // The draft is edited as any other.
            XCTAssertNoThrow(try drafts.edit(draft.draftID, DraftInput(body: "Edited.")))
        }
    }

    /// A forwarded text attachment lost its `charset` (sent as if US-ASCII): a `text/*` one keeps its part's, lowercased,
    /// through edits; one that is no RFC 2045 token of at most 64 bytes (a space, a `tspecial`, a byte beyond ASCII, 65
    /// bytes), or on a type that is not text, is dropped, and the attachment goes as before, with no charset.
    func testAForwardedTextAttachmentKeepsItsCharsetAndAHostileOneIsDropped() throws {
        let parts: [(header: String, name: String)] = [
            ("text/plain; charset=ISO-8859-1", "latin1.txt"),
            ("text/plain; charset=\"iso 8859-1\"", "space.txt"),
            ("text/plain; charset=\"iso-8859-1;x=y\"", "tspecial.txt"),
            ("text/plain; charset*=utf-8''%C3%A9", "beyond-ascii.txt"),
            ("text/plain; charset=" + String(repeating: "a", count: 65), "long.txt"),
            ("application/octet-stream; charset=iso-8859-1", "data.bin"),
        ]
        var text = "From: Bob <bob@example.org>\nTo: tom@example.com\nSubject: Charsets\nDate: Mon, 15 Jan 2024 09:00:00 +0000\n"
            + "Message-ID: <charsets@example.org>\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\n"
            + "Content-Type: text/plain\n\nFiles.\n"
        for part in parts {
            text += "--b1\nContent-Type: \(part.header)\nContent-Disposition: attachment; filename=\"\(part.name)\"\n"
                + "Content-Transfer-Encoding: quoted-printable\n\nGr=FC=DFe aus K=F6ln\n"
        }
        let id = try original(text + "--b1--\n")
        let drafts = DraftsUseCase(store: store)
        let (draft, problems) = try drafts.create(account: "home", DraftInput(to: "erin@example.com", forward: id))
        XCTAssertEqual(problems, [])
        XCTAssertEqual(draft.attachments.map(\.filename), parts.map(\.name))
        XCTAssertEqual(draft.attachments.map(\.charset), ["iso-8859-1", nil, nil, nil, nil, nil])
        // Kept through an edit, each with its own attachment when another is detached.
        _ = try drafts.edit(draft.draftID, DraftInput(body: "Edited.", detach: ["space.txt"]))
        let edited = try XCTUnwrap(try store.draft(id: draft.draftID)).latest
        XCTAssertEqual(edited.attachments.map(\.filename), parts.map(\.name).filter { $0 != "space.txt" })
        XCTAssertEqual(edited.attachments.map(\.charset), ["iso-8859-1", nil, nil, nil, nil])
        let bytes = try sent(edited)
        let sentText = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: " ")
        XCTAssertTrue(sentText.contains("Content-Type: text/plain; charset=iso-8859-1; name=\"latin1.txt\"\r\n"), sentText)
        XCTAssertTrue(sentText.contains("Content-Type: text/plain; name=\"long.txt\"\r\n"), sentText)
        XCTAssertEqual(sentText.components(separatedBy: "charset=").count - 1, 2, "the body's utf-8 and latin1.txt's: \(sentText)")
        let latin1: [UInt8] = Array("Gr".utf8) + [0xFC, 0xDF] + Array("e aus K".utf8) + [0xF6] + Array("ln".utf8)
        let parsed = MailParser.parse(bytes)
        XCTAssertEqual(parsed.attachments.first?.filename, "latin1.txt")
        XCTAssertEqual(parsed.attachments.first.map { $0.decodedBody(in: bytes) }, latin1, "the original part's bytes")
    }

    /// A text file attached with `--attach` went without a charset whatever its bytes, so readers took UTF-8 text for
    /// US-ASCII (`Ã¼` for `ü`): UTF-8 text goes with `charset=utf-8`, ASCII text as before, text that is not UTF-8 as
    /// `application/octet-stream` (an HTML file as `text/html` without a charset: its `<meta>` tells), the bytes exact.
    func testAnAttachedTextFileNamesTheCharsetItsBytesAreIn() throws {
        let files: [(name: String, bytes: [UInt8])] = [
            ("utf8.txt", Array("Grüße aus Köln\n".utf8)),
            ("ascii.txt", Array("Hello\n".utf8)),
            ("latin1.csv", Array("Gr".utf8) + [0xFC, 0xDF] + Array("e\n".utf8)),
            ("latin1.html", Array("<p>K".utf8) + [0xF6] + Array("ln</p>\n".utf8)),
        ]
        var paths: [String] = []
        for file in files {
            paths.append(dir.file(file.name))
            try Data(file.bytes).write(to: URL(fileURLWithPath: dir.file(file.name)))
        }
        let (draft, problems) = try DraftsUseCase(store: store).create(account: "home",
                                                                       DraftInput(to: "erin@example.com", attach: paths))
        XCTAssertEqual(problems, [])
        XCTAssertEqual(draft.attachments.map(\.mimeType), ["text/plain", "text/plain", "application/octet-stream", "text/html"])
        XCTAssertEqual(draft.attachments.map(\.charset), ["utf-8", nil, nil, nil])
        let bytes = try sent(draft)
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: " ")
        XCTAssertTrue(text.contains("Content-Type: text/plain; charset=utf-8; name=\"utf8.txt\"\r\n"), text)
        XCTAssertTrue(text.contains("Content-Type: text/plain; name=\"ascii.txt\"\r\n"), text)
        let parsed = MailParser.parse(bytes)
        XCTAssertEqual(parsed.attachments.map(\.filename), files.map(\.name))
        XCTAssertEqual(parsed.attachments.map { $0.decodedBody(in: bytes) }, files.map(\.bytes), "each file's bytes exact")
    }
}
