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
        XCTAssertTrue(many.warnings.contains { $0.code == .tooManyAttachments && $0.detail.hasPrefix("1500 attachments; 1000 listed, left out 500 real and 0 inline") },
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
        XCTAssertEqual(many.unlistedAttachments, 500)
        XCTAssertEqual(few.unlistedAttachments, 0)
    }

    /// Over the bounds, real attachments are listed first and inline parts fill what is left: a message whose first
    /// parts are hundreds of long-named inline images kept only those, its real attachments left out of the event (and
    /// of a forward) without a word.
    func testRealAttachmentsAreListedBeforeInlineParts() {
        var s = "From: a@example.com\r\nContent-Type: multipart/related; boundary=b\r\n\r\n"
        for i in 0..<300 {
            s += "--b\r\nContent-Type: image/png\r\nContent-Disposition: inline; filename=\"\(String(repeating: "i", count: 6_000))\(i)\"\r\n"
                + "Content-ID: <img\(i)@x>\r\n\r\nx\r\n"
        }
        s += "--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"report.pdf\"\r\n\r\nx\r\n"
        s += "--b\r\nContent-Type: text/csv; name=\"rows.csv\"\r\n\r\nx\r\n--b--\r\n"
        let m = parse(s)
        XCTAssertEqual(m.attachments.filter { !$0.isInline }.map(\.filename), ["report.pdf", "rows.csv"])
        XCTAssertTrue(m.hasAttachments)
        XCTAssertEqual(m.unlistedAttachments, 0)
        XCTAssertEqual(m.attachments.suffix(2).map(\.filename), ["report.pdf", "rows.csv"], "in the message's order")
        let inline = m.attachments.filter(\.isInline).count
        XCTAssertEqual(inline, (ParsedMessage.maxAttachmentListBytes - 10 - 15 - 8 - 8) / (255 + 9), "inline parts fill what is left")
        XCTAssertTrue(m.warnings.contains { $0.code == .tooManyAttachments && $0.detail.hasPrefix("302 attachments; \(inline + 2) listed, left out 0 real and \(300 - inline) inline") },
                      "\(m.warnings)")
    }
}
