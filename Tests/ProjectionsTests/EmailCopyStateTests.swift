import EventModel
import Projections
import XCTest

/// An action reads its copies' account, folder and flags from the threads view's records without decoding the rest
/// (`EmailCopyState`): it must read what a full decode reads, and refuse what a full decode refuses.
final class EmailCopyStateTests: XCTestCase {
    private func record(_ rng: inout SystemRandomNumberGenerator) -> EmailRecord {
        let texts = ["", "INBOX", "Archive/2024", "é😀", String(repeating: "x", count: 300), "a\u{0}b", "\\Seen"]
        func text() -> String { texts.randomElement(using: &rng)! }
        let sender: EmailAddress? = switch Int.random(in: 0...2, using: &rng) {
        case 0: nil
        case 1: EmailAddress(name: nil, email: text())
        default: EmailAddress(name: text(), email: text())
        }
        return EmailRecord(account: text(), folder: text(), messageKey: text(), threadID: text(),
                           date: Timestamp(microseconds: Int64.random(in: -1_000_000...Int64.max / 2, using: &rng)),
                           sender: sender, subject: text(), snippet: text(),
                           flags: (0..<Int.random(in: 0...4, using: &rng)).map { _ in text() },
                           hasAttachments: Bool.random(using: &rng), category: AICategory.allCases.randomElement(using: &rng)!,
                           sequence: UInt64.random(in: 0...UInt64.max, using: &rng))
    }

    private func encoded(_ r: EmailRecord) -> [UInt8] {
        var w = ByteWriter()
        r.write(to: &w)
        return w.bytes
    }

    private func state(_ bytes: [UInt8]) throws -> EmailCopyState {
        try bytes.withUnsafeBytes { buf in
            var r = ByteReader(buf)
            return try EmailCopyState(from: &r)
        }
    }

    private func full(_ bytes: [UInt8]) throws -> EmailRecord {
        try bytes.withUnsafeBytes { buf in
            var r = ByteReader(buf)
            return try EmailRecord(from: &r)
        }
    }

    /// Records with and without a sender, a sender's name, flags, long and non-ASCII fields: the state read from
    /// the bytes is the record's.
    func testTheStateReadIsTheRecordsAccountFolderAndFlags() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let r = record(&rng)
            XCTAssertEqual(try state(encoded(r)), EmailCopyState(r))
        }
    }

    /// A thread's copy states, read from its membership record's email ids and its copies' records, are the
    /// copies `emails(thread:)` gives, in the same order: threads of one to five messages, some in two folders,
    /// one merged from two, and a thread that does not exist (none).
    func testAThreadsCopyStatesAreItsEmailsStates() throws {
        let harness = FoldHarness(types: [ThreadsProjector.self])
        var events: [DomainEvent] = []
        for t in 0..<20 {
            for m in 0..<(1 + t % 5) {
                let folders: [String] = t % 3 == 0 ? ["INBOX", "Archive"] : ["INBOX"]
                for (c, folder) in folders.enumerated() {
                    events.append(.emailReceived(EmailReceived(
                        emailID: "t\(t)m\(m)c\(c)", folder: folder, messageID: "t\(t)m\(m)@x",
                        references: m == 0 ? (t == 7 ? ["t6m0@x"] : []) : ["t\(t)m0@x"], subject: "S \(t)",
                        from: [EmailAddress(name: m % 2 == 0 ? "Jürgen" : nil, email: "s\(m)@example.com")],
                        date: Timestamp(microseconds: 1_700_000_000_000_000 + Int64(t * 10 + m) * 1_000_000), dateSource: .header,
                        flags: m % 2 == 0 ? ["\\Seen"] : [], size: 10, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)))
                }
            }
        }
        try harness.fold(events, account: "acct")
        let reader = ThreadsReader(harness.snapshot)
        var checked = 0
        for t in 0..<20 {
            let emails = try reader.emails(thread: "t\(t)m0c0")
            let states = try reader.copyStates(thread: "t\(t)m0c0")
            XCTAssertEqual(states.map(\.id), emails.map(\.id), "thread \(t)")
            XCTAssertEqual(states.map(\.state), emails.map { EmailCopyState($0.email) }, "thread \(t)")
            checked += emails.count
        }
        XCTAssertEqual(checked, events.count)
        XCTAssertTrue(try reader.copyStates(thread: "nope").isEmpty)
    }

    /// Cut short anywhere before its flags end, or with a bad optional tag where the sender is, a record's state is
    /// refused, as the full decode refuses the record.
    func testARecordCutShortOrWithABadTagIsRefused() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let r = record(&rng)
            let bytes = encoded(r)
            // The flags end before the last three fields (a boolean, a category, a sequence).
            var w = ByteWriter()
            r.hasAttachments.write(to: &w); r.category.write(to: &w); r.sequence.write(to: &w)
            let flagsEnd = bytes.count - w.bytes.count
            for cut in 0..<flagsEnd {
                XCTAssertThrowsError(try state(Array(bytes[..<cut])), "cut at \(cut)")
                XCTAssertThrowsError(try full(Array(bytes[..<cut])), "cut at \(cut)")
            }
        }
        // The sender's tag follows the account, folder, message key, thread id (each a length and its bytes) and the
        // date (a varint): with every field empty, at byte 5.
        var bad = encoded(EmailRecord(account: "", folder: "", messageKey: "", threadID: "", date: Timestamp(microseconds: 0),
                                      sender: nil, subject: "", snippet: "", flags: [], hasAttachments: false,
                                      category: .primary, sequence: 0))
        XCTAssertEqual(bad[5], 0)
        bad[5] = 2
        XCTAssertThrowsError(try state(bad))
        XCTAssertThrowsError(try full(bad))
    }
}
