import Foundation
import MailParser
import MessageComposer
import SMTPClient
import XCTest

/// A message made by MessageComposer goes through the real server and reads back the same.
final class ComposedMessageTests: SMTPTestCase {
    func testAComposedMessageWithAttachmentsArrivesAndParsesBack() throws {
        let subject = "Grüße – \(marker) ☕"
        let pdf = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let attachments = [
            DraftAttachment(filename: "Prüfbericht 2026.pdf", mimeType: "application/pdf", data: pdf),
            DraftAttachment(filename: "notes.txt", mimeType: "text/plain", data: Array(".dot first\nline\n".utf8)),
        ]
        let draft = MessageDraft(from: MailAddress(name: "Alice", email: server.user),
                                 to: [MailAddress(name: "Bob Müller", email: "bob@example.com")],
                                 bcc: [MailAddress(name: nil, email: "hidden@example.com")],
                                 subject: subject, text: "Anbei die Dateien.\n.\nÄ\n", attachments: attachments)
        let message = try MessageComposer.compose(draft)
        let smtp = try loggedIn()
        try smtp.send(from: message.envelopeSender, recipients: message.envelopeRecipients, message: message.bytes)

        let (entry, bytes) = try XCTUnwrap(server.spooledMessage(containing: message.messageID))
        XCTAssertEqual(bytes, message.bytes)
        XCTAssertEqual(entry.to, ["bob@example.com", "hidden@example.com"])
        XCTAssertTrue(entry.mailOptions.contains("BODY=8BITMIME"), "\(entry.mailOptions)")
        let parsed = MailParser.parse(bytes)
        XCTAssertEqual(parsed.subject, subject)
        XCTAssertEqual(parsed.from.map(\.email), [server.user])
        XCTAssertEqual(parsed.to, [MailAddress(name: "Bob Müller", email: "bob@example.com")])
        XCTAssertEqual(parsed.bcc, [])
        XCTAssertEqual(parsed.textBody, "Anbei die Dateien.\n.\nÄ\n")
        let files = parsed.root.children.filter { $0.filename != nil }
        XCTAssertEqual(files.map(\.filename), attachments.map(\.filename))
        XCTAssertEqual(files.map { $0.decodedBody(in: bytes) }, attachments.map(\.data))
    }

    func testAComposedMessageWithAttachmentsArrivesAndParsesBackOnExim() throws { try testAComposedMessageWithAttachmentsArrivesAndParsesBack() }
}
