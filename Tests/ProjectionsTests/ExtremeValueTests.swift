import CorpusGenerator
import EventModel
import Projections
import XCTest

/// No event can fail a fold because of what it contains: every projector folds events whose fields hold
/// extreme values (empty, 1 MB, NUL, replacement characters from invalid UTF-8, 10,000 references,
/// 600-byte ids, addresses and folder names), into a store that refuses keys LMDB would refuse, and the
/// readers read the result back.
final class ExtremeValueTests: XCTestCase {
    static let megabyte = String(repeating: "x", count: 1 << 20)
    static let extremes: [(String, String)] = [
        ("empty", ""),
        ("1 MB", megabyte),
        ("NUL", "a\u{0}b\u{0}"),
        ("invalid UTF-8", String(decoding: [0x61, 0xFF, 0xFE, 0xC3, 0x28, 0xE2, 0x82], as: UTF8.self)),
        ("600 bytes", String(repeating: "m", count: 600) + "@example.com"),
        ("600 bytes of 4-byte characters", String(repeating: "😀", count: 150)),
        ("2-byte characters across the cut", String(repeating: "é", count: 300)),
    ]

    func events(_ v: String, index: Int) -> [DomainEvent] {
        let blob = BlobHash(bytes: [UInt8](repeating: 7, count: 32))!
        let address = EmailAddress(name: v, email: v)
        let id = "e\(index)-" + v
        let references = (0..<10_000).map { "<ref-\($0)-\(v.prefix(40))@example.com>" } + [v]
        let received = EmailReceived(emailID: id, folder: v, uid: 1, uidValidity: 1, messageID: v, inReplyTo: [v, ""],
                                     references: references, subject: v, from: [address], to: [address, address], cc: [address],
                                     date: Timestamp(microseconds: 1_700_000_000_000_000), dateSource: .received,
                                     flags: [v, "\\Seen", ""] + (0..<500).map { "kw\($0)" }, snippet: v,
                                     attachments: [AttachmentInfo(filename: v, mimeType: v, size: 1, isInline: false)],
                                     size: 1, blob: blob, listID: v, warnings: [v])
        let target = ActionTarget(emailID: id, folder: v, flags: [v])
        let action = ThreadAction(threadIDs: [id, v], targets: [target], destination: v)
        let actionID = EventID(high: 0x0190_0000_0000_0001, low: 0x8000_0000_0000_0001)
        return [
            .accountAdded(AccountAdded(name: v, email: v, provider: v, imapHost: v, imapPort: 993, imapSecurity: v, auth: v, username: v,
                                       credentialSource: v, caFile: v, smtpHost: v, smtpPort: 587, smtpSecurity: v, smtpUsername: v,
                                       smtpCredentialSource: v)),
            .folderDiscovered(FolderDiscovered(folder: v, displayName: v, role: .inbox, delimiter: v, attributes: [v], uidValidity: 1)),
            .folderSyncCheckpointed(FolderSyncCheckpointed(folder: v, uidValidity: 1, highestUID: 1, uidNext: 2, highestModSeq: 1, lowestUIDFetched: 1)),
            .emailReceived(received),
            .flagsChanged(FlagsChanged(emailID: id, folder: v, flags: [v], added: [v], removed: [], modSeq: 2)),
            .emailCategorized(EmailCategorized(emailID: id, category: .promotions, classifier: v)),
            .threadStarred(action), .threadMoved(action), .threadArchived(action),
            .flagRejected(FlagRejected(actionID: actionID, emailIDs: [id, v], flag: v, wasSet: true, message: v)),
            .actionReverted(ActionReverted(actionID: actionID, targets: [target], reason: v)),
            .actionFailed(ActionFailed(actionID: actionID, emailIDs: [id], reason: v, attempt: 1, retryAt: Timestamp(microseconds: 1))),
            .draftSaved(DraftSaved(draftID: v, draftVersion: 1, to: [address], cc: [], bcc: [], subject: v, body: v,
                                   attachments: [DraftAttachment(filename: v, mimeType: v, size: 1, blob: blob, charset: v)],
                                   inReplyTo: v, references: [v], replyToEmailID: v, forwardOfEmailID: v)),
            .messageQueued(MessageQueued(draftID: v, draftVersion: 1, messageID: v, dueAt: Timestamp(microseconds: 1))),
            .sendFailed(SendFailed(draftID: v, reason: v, permanent: false, retryAt: Timestamp(microseconds: 2))),
            .draftCopyChanged(DraftCopyChanged(draftID: v, change: .appending, draftVersion: 1, folder: v, messageID: v)),
            .draftCopyChanged(DraftCopyChanged(draftID: v, change: .failed, draftVersion: 1, reason: v, attempt: 1)),
            .notificationDelivered(NotificationDelivered(emailID: id)),
            .emailExpunged(EmailExpunged(emailID: id, folder: v, uid: 1)),
            .folderRemoved(FolderRemoved(folder: v)),
            .accountRemoved(AccountRemoved(name: v)),
        ]
    }

    func testEveryProjectorFoldsExtremeValuesAndTheReadersReadThem() throws {
        for (i, (label, v)) in Self.extremes.enumerated() {
            let harness = FoldHarness()
            // The value as the account (an --account argument) and inside every field, twice (the second
            // time over the state the first left).
            for account in [v, "acct"] {
                XCTAssertNoThrow(try harness.fold(events(v, index: i), account: account), "fold failed for \(label)")
                XCTAssertNoThrow(try harness.fold(events(v, index: i + 100), account: account), "second fold failed for \(label)")
            }
            let s = harness.snapshot
            XCTAssertNoThrow(try ThreadsReader(s).page(scope: v, folder: v, category: nil, after: nil, limit: 25), label)
            XCTAssertNoThrow(try FoldersReader(s).folders(account: v), label)
            XCTAssertNoThrow(try FoldersReader(s).accounts(), label)
            XCTAssertNoThrow(try ContactsReader(s).complete(account: v, prefix: v), label)
            XCTAssertNoThrow(try DedupReader(s).duplicates(account: v), label)
            XCTAssertNoThrow(try ActionsReader(s).actionIDs(touching: v), label)
            XCTAssertNoThrow(try OutboxReader(s).items(account: v), label)
            XCTAssertNoThrow(try SyncStateReader(s).copies(account: v, folder: v), label)
            // A draft's attachment charset (DraftSaved schema 2) is kept in the drafts view as it was saved (a draft
            // whose id no key can hold is not kept at all).
            if let draft = try DraftsReader(s).draft(id: v) { XCTAssertEqual(draft.latest.attachments.map(\.charset), [v], label) }
        }
    }

    func testAMessageWithAHugeMessageIDStillThreadsWithItsReply() throws {
        let harness = FoldHarness()
        let blob = BlobHash(bytes: [UInt8](repeating: 7, count: 32))!
        let longID = "<" + String(repeating: "a", count: 700) + "@example.com>"
        let date = Timestamp(microseconds: 1_700_000_000_000_000)
        let first = EmailReceived(emailID: "e1", folder: "INBOX", messageID: longID, subject: "Hi", date: date, dateSource: .received,
                                  size: 1, blob: blob)
        let reply = EmailReceived(emailID: "e2", folder: "INBOX", messageID: "<r@x>", inReplyTo: [longID], references: [longID],
                                  subject: "Re: Hi", date: Timestamp(microseconds: date.microseconds + 1), dateSource: .received, size: 1, blob: blob)
        try harness.fold([.folderDiscovered(FolderDiscovered(folder: "INBOX", displayName: "Inbox", role: .inbox)),
                          .emailReceived(first), .emailReceived(reply)], account: "a")
        let page = try ThreadsReader(harness.snapshot).page(scope: "a", folder: "INBOX", category: nil, after: nil, limit: 25)
        XCTAssertEqual(page.threads.count, 1)
        XCTAssertEqual(page.threads.first?.messageCount, 2)
    }

    func testKeysAreBoundedAndTheirStringPartsReadBackToTheSameBytes() {
        for (label, v) in Self.extremes {
            let key = Key(v, v, v, v)
            var k = key
            k.descending(1)
            XCTAssertLessThanOrEqual(k.bytes.count, 511, label)
            var r = KeyReader(key.bytes)
            let part = r.string()
            XCTAssertEqual(part, Key.bounded(v), label)
            XCTAssertEqual(Key(part).bytes, Key(v).bytes, "a bounded part encodes back to the same bytes: \(label)")
        }
        // Distinct long parts stay distinct; short ones are kept whole.
        let a = String(repeating: "a", count: 200) + "1", b = String(repeating: "a", count: 200) + "2"
        XCTAssertNotEqual(Key(a).bytes, Key(b).bytes)
        XCTAssertEqual(Key("short").bytes, Array("short".utf8) + [0])
    }

    /// The one-, two- and three-part initializers give the bytes of the parts appended one by one (as the variadic
    /// one does), for every extreme value: NUL bytes made 1, long parts bounded.
    func testKeysOfOneTwoAndThreePartsAreThePartsAppended() {
        for (label, v) in Self.extremes {
            func appended(_ parts: [String]) -> [UInt8] {
                var k = Key()
                for p in parts { k.string(p) }
                return k.bytes
            }
            XCTAssertEqual(Key(v).bytes, appended([v]), label)
            XCTAssertEqual(Key("a", v).bytes, appended(["a", v]), label)
            XCTAssertEqual(Key(v, "b\u{0}c", v).bytes, appended([v, "b\u{0}c", v]), label)
            XCTAssertEqual(Key(v, v, v, v).bytes, appended([v, v, v, v]), label)
        }
        XCTAssertEqual(Key("a\u{0}b").bytes, [0x61, 1, 0x62, 0])
    }

    /// `Key.precedes` (memcmp) orders keys as the element-by-element comparison does: empty keys, one key starting
    /// another, bytes over 0x7F, and random keys of every length up to a key's bound.
    func testKeyPrecedesIsByteOrder() {
        var gen = SplitMix64(seed: 5)
        var keys: [[UInt8]] = [[], [0], [0, 0], [1], [0xFF], [0x7F, 0x80], [0x80], Array("ab".utf8), Array("abc".utf8)]
        for _ in 0..<400 {
            let n = Int.random(in: 0...511, using: &gen)
            keys.append((0..<n).map { _ in UInt8.random(in: 0...3, using: &gen) * 0x55 })
        }
        for a in keys {
            for b in keys.prefix(60) {
                XCTAssertEqual(Key.precedes(a, b), a.lexicographicallyPrecedes(b), "\(a.prefix(8)) \(b.prefix(8))")
                XCTAssertEqual(Key.precedes(b, a), b.lexicographicallyPrecedes(a))
            }
        }
    }

    func testLinkKeysKeepTheParentAndTheNearestReferencesWhenThereAreTooMany() {
        let refs = (0..<10_000).map { "<r\($0)>" }
        let keys = ViewBounds.linkKeys(messageKey: "<m>", references: refs, inReplyTo: ["<r9999>"])
        XCTAssertEqual(keys.count, ViewBounds.maxLinkKeys)
        XCTAssertEqual(Array(keys.prefix(3)), ["<m>", "<r9999>", "<r9998>"])
        // Under the bound the order is the one threading always used.
        XCTAssertEqual(ViewBounds.linkKeys(messageKey: "<m>", references: ["<a>", "<b>"], inReplyTo: ["<b>"]), ["<m>", "<a>", "<b>"])
    }
}
