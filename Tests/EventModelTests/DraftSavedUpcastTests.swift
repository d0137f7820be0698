import EventModel
import XCTest

/// `DraftSaved` version 2 added each attachment's `charset` (a forwarded text attachment was sent without its own);
/// version 1 records, as older builds wrote them, read with none.
final class DraftSavedUpcastTests: XCTestCase {
    /// A version 1 record's payload, byte for byte as a build before schema 2 wrote it.
    static let version1: [UInt8] = [
        0x02, 0x64, 0x31,                                   // draftID "d1"
        0x01,                                               // draftVersion 1
        0x01, 0x00, 0x05, 0x61, 0x40, 0x62, 0x2E, 0x63,     // to: [nil name, "a@b.c"]
        0x00, 0x00,                                         // cc, bcc: []
        0x01, 0x53, 0x01, 0x42,                             // subject "S", body "B"
        0x01,                                               // attachments: one
        0x05, 0x61, 0x2E, 0x74, 0x78, 0x74,                 //   filename "a.txt"
        0x0A, 0x74, 0x65, 0x78, 0x74, 0x2F, 0x70, 0x6C, 0x61, 0x69, 0x6E,  // mimeType "text/plain"
        0x03,                                               //   size 3
    ] + [UInt8](repeating: 0x01, count: 32) + [             //   blob
        0x00, 0x00, 0x00,                                   // inReplyTo nil, references [], replyToEmailID nil
        0x01, 0x02, 0x65, 0x31,                             // forwardOfEmailID "e1"
    ]

    let blob = BlobHash(bytes: [UInt8](repeating: 1, count: 32))!

    var expected: DraftSaved {
        DraftSaved(draftID: "d1", draftVersion: 1, to: [EmailAddress(name: nil, email: "a@b.c")], subject: "S", body: "B",
                   attachments: [DraftAttachment(filename: "a.txt", mimeType: "text/plain", size: 3, blob: blob)], forwardOfEmailID: "e1")
    }

    func payload(_ p: DraftSaved) -> [UInt8] {
        var w = ByteWriter()
        DomainEvent.draftSaved(p).encodePayload(to: &w)
        return w.bytes
    }

    func testAVersion1RecordReadsWithNoCharset() throws {
        XCTAssertEqual(DraftSaved.schemaVersion, 2)
        let decoded = try DomainEvent.decode(type: .draftSaved, version: 1, payload: Self.version1)
        XCTAssertEqual(decoded, .draftSaved(expected))
        XCTAssertEqual(decoded.schemaVersion, 2, "written again, it is written at the current version")
        // Written again: version 1's fields as they were, then the charsets (one attachment, none).
        XCTAssertEqual(payload(expected), Self.version1 + [0x01, 0x00])
        XCTAssertThrowsError(try DomainEvent.decode(type: .draftSaved, version: 2, payload: Self.version1), "version 2 has the field")
    }

    func testVersion2KeepsEachAttachmentsCharset() throws {
        var p = expected
        p.attachments[0].charset = "iso-8859-1"
        p.attachments.append(DraftAttachment(filename: "b.bin", mimeType: "application/octet-stream", size: 0, blob: blob))
        p.attachments.append(DraftAttachment(filename: "c.txt", mimeType: "text/plain", size: 1, blob: blob, charset: "shift_jis"))
        let bytes = payload(p)
        XCTAssertEqual(try DomainEvent.decode(type: .draftSaved, version: 2, payload: bytes), .draftSaved(p))
        XCTAssertThrowsError(try DomainEvent.decode(type: .draftSaved, version: 1, payload: bytes), "version 1 has no such field")
    }

    /// No build writes a charset list of another length than the attachments', nor a charset that is no token; a
    /// record holding one still reads (a draft is never lost for it): the list as far as both go, the values as
    /// written (the composer checks them before sending).
    func testAVersion2RecordWithAnOddCharsetListStillReads() throws {
        let hostile = "x\"; name=\"evil\r\nBcc: eve@example.net\u{0}" + String(repeating: "é", count: 100)
        func record(charsets: [String?]) -> [UInt8] {
            var w = ByteWriter()
            w.write(charsets)
            return Self.version1 + w.bytes
        }
        var longer = expected
        longer.attachments[0].charset = hostile
        XCTAssertEqual(try DomainEvent.decode(type: .draftSaved, version: 2, payload: record(charsets: [hostile, "utf-8", nil])),
                       .draftSaved(longer))
        XCTAssertEqual(try DomainEvent.decode(type: .draftSaved, version: 2, payload: record(charsets: [])), .draftSaved(expected))
    }
}
