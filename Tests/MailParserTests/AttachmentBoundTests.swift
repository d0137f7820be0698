import XCTest
@testable import MailParser

/// Attachment names, types and lists are bounded: a message of thousands of parts with ~6 KB names made each of its
/// events ~32 MiB (every event recording a message carries its attachment list) and its search index entry as much.
final class AttachmentBoundTests: XCTestCase {
    private func message(parts: Int, name: String, type: String = "application/pdf") -> String {
        var s = "From: a@example.com\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
        for i in 0..<parts {
            s += "--b\r\nContent-Type: \(type)\r\nContent-Disposition: attachment; filename=\"\(name)\(i)\"\r\n\r\nx\r\n"
        }
        return s + "--b--\r\n"
    }

    func testLongNamesAndTypesAreCutAtACharacterEnd() {
        // "é" is two bytes: 300 of them pass 255 bytes, and the cut falls on a character's end.
        let m = parse(message(parts: 1, name: String(repeating: "é", count: 300), type: "application/" + String(repeating: "x", count: 400)))
        let a = try? XCTUnwrap(m.attachments.first)
        XCTAssertEqual(a?.filename, String(repeating: "é", count: 127))
        XCTAssertEqual(a?.mimeType.utf8.count, 255)
        XCTAssertEqual(Attachment.cut("short", maxBytes: 255), "short")
        // One character longer than the bound alone (a letter with 200 combining marks): cut at a scalar's end.
        let heavy = "a" + String(repeating: "\u{301}", count: 200)
        XCTAssertEqual(Attachment.cut(heavy, maxBytes: 255).utf8.count, 255)
    }

    func testTheListIsBoundedByCountAndBytesWithAWarning() {
        let many = parse(message(parts: 1_500, name: "a"))
        XCTAssertEqual(many.attachments.count, ParsedMessage.maxListedAttachments)
        XCTAssertTrue(many.warnings.contains { $0.code == .tooManyAttachments && $0.detail.hasPrefix("1500 attachments; the first 1000 listed") },
                      "\(many.warnings)")
        // 300 names of ~255 bytes (a 6 KB name each in the message): 64 KiB of names and types holds ~250 of them.
        let long = parse(message(parts: 300, name: String(repeating: "n", count: 6_000)))
        let bytes = long.attachments.reduce(0) { $0 + ($1.filename?.utf8.count ?? 0) + $1.mimeType.utf8.count }
        XCTAssertLessThanOrEqual(bytes, ParsedMessage.maxAttachmentListBytes)
        XCTAssertEqual(long.attachments.count, ParsedMessage.maxAttachmentListBytes / (255 + "application/pdf".utf8.count))
        XCTAssertTrue(long.warnings.contains { $0.code == .tooManyAttachments }, "\(long.warnings)")
        let few = parse(message(parts: 3, name: "a"))
        XCTAssertEqual(few.attachments.map(\.filename), ["a0", "a1", "a2"])
        XCTAssertFalse(few.warnings.contains { $0.code == .tooManyAttachments })
    }
}
