import EventModel
import Foundation
import XCTest

/// `EmailReceived` holds its fields in one shared object: it must still behave as a value.
final class EmailReceivedStorageTests: XCTestCase {
    private func example() throws -> EmailReceived {
        for case .emailReceived(let p) in DomainEvent.examples { return p }
        throw XCTSkip("no EmailReceived example")
    }

    func testSettingAFieldOfACopyLeavesTheOriginal() throws {
        let original = try example()
        var copy = original
        copy.subject = "another subject"
        copy.flags.append("\\Seen")
        copy.from = []
        copy.uid = nil
        XCTAssertEqual(original.subject, "subject-7")
        XCTAssertEqual(original.flags, ["flags-a", "flags-b"])
        XCTAssertEqual(original.from.count, 2)
        XCTAssertEqual(original.uid, 14)
        XCTAssertEqual(copy.subject, "another subject")
        XCTAssertEqual(copy.flags, ["flags-a", "flags-b", "\\Seen"])
        XCTAssertEqual(copy.from, [])
        XCTAssertNil(copy.uid)
        XCTAssertNotEqual(copy, original)
        // The other fields are the original's.
        XCTAssertEqual(copy.emailID, original.emailID)
        XCTAssertEqual(copy.blob, original.blob)
        XCTAssertEqual(copy.warnings, original.warnings)
    }

    func testEqualityComparesTheFieldsNotWhereTheyAreHeld() throws {
        let original = try example()
        // Built again from its payload bytes: equal values in another object.
        var w = ByteWriter()
        DomainEvent.emailReceived(original).encodePayload(to: &w)
        guard case .emailReceived(let decoded) = try DomainEvent.decode(type: .emailReceived, version: EmailReceived.schemaVersion, payload: w.bytes) else {
            return XCTFail("not decoded as EmailReceived")
        }
        XCTAssertEqual(decoded, original)
        // Each field changed alone makes the payload differ.
        let changes: [(String, (inout EmailReceived) -> Void)] = [
            ("emailID", { $0.emailID += "x" }), ("folder", { $0.folder += "x" }), ("uid", { $0.uid = 15 }),
            ("uidValidity", { $0.uidValidity = nil }), ("sourceLocation", { $0.sourceLocation = nil }),
            ("messageID", { $0.messageID = "m" }), ("inReplyTo", { $0.inReplyTo = [] }), ("references", { $0.references.removeLast() }),
            ("gmailThreadID", { $0.gmailThreadID = 1 }), ("subject", { $0.subject = "" }), ("from", { $0.from.removeFirst() }),
            ("to", { $0.to = [] }), ("cc", { $0.cc = [] }), ("bcc", { $0.bcc = [] }), ("replyTo", { $0.replyTo = [] }),
            ("date", { $0.date = Timestamp(microseconds: 1) }), ("dateSource", { $0.dateSource = .header }),
            ("flags", { $0.flags = [] }), ("snippet", { $0.snippet = "s" }), ("attachments", { $0.attachments = [] }),
            ("size", { $0.size += 1 }), ("blob", { $0.blob = BlobHash(bytes: [UInt8](repeating: 1, count: 32))! }),
            ("listID", { $0.listID = nil }), ("warnings", { $0.warnings = [] }), ("receivedAt", { $0.receivedAt = nil }),
            ("gmailMessageID", { $0.gmailMessageID = nil }),
        ]
        XCTAssertEqual(changes.count, 26, "a change per field")
        for (name, change) in changes {
            var changed = decoded
            change(&changed)
            XCTAssertNotEqual(changed, original, name)
            XCTAssertEqual(decoded, original, "\(name): the value changed was a copy")
            var again = ByteWriter()
            DomainEvent.emailReceived(changed).encodePayload(to: &again)
            XCTAssertNotEqual(again.bytes, w.bytes, "\(name) is written")
        }
    }

    func testItsJSONHasOneKeyPerField() throws {
        let encoder = JSONEncoder()
        let json = try encoder.encode(try example())
        let keys = ["emailID", "folder", "uid", "uidValidity", "sourceLocation", "messageID", "inReplyTo", "references",
                    "gmailThreadID", "subject", "from", "to", "cc", "bcc", "replyTo", "date", "dateSource", "flags",
                    "snippet", "attachments", "size", "blob", "listID", "warnings", "receivedAt", "gmailMessageID"]
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        XCTAssertEqual(Set(object.keys), Set(keys))
        // An absent optional is left out.
        var without = try example()
        without.listID = nil
        let fewer = try XCTUnwrap(JSONSerialization.jsonObject(with: try encoder.encode(without)) as? [String: Any])
        XCTAssertNil(fewer["listID"])
        XCTAssertEqual(fewer.count, keys.count - 1)
    }
}
