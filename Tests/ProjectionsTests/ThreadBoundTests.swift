import EventModel
import Projections
import XCTest

/// A thread holds at most `ThreadBound`'s mail: past it, mail linked to the full thread goes on in one other thread
/// (not one new thread per reply), merges stop where the result would be full, and every way of folding the same
/// events gives the same view.
final class ThreadBoundTests: XCTestCase {
    private let bound = ThreadBound(emails: 5, memberKeyBytes: 1 << 20)

    private func mail(_ id: String, refs: [String] = [], at i: Int) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: id, folder: "INBOX", messageID: "\(id)@x", inReplyTo: refs.suffix(1).map { $0 },
                                     references: refs, subject: "Re: long", from: [EmailAddress(name: nil, email: "s\(i)@example.com")],
                                     date: Timestamp(microseconds: 1_700_000_000_000_000 + Int64(i) * 1_000_000), dateSource: .header,
                                     size: 10, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
    }

    /// Folds `batches` into a new threads projector with `bound`; returns the store.
    private func fold(_ batches: [[DomainEvent]], bound: ThreadBound) throws -> InMemoryKeyValueStore {
        let store = InMemoryKeyValueStore()
        let context = FoldContext(store: store)
        let threads = ThreadsProjector(context: context)
        threads.threadBound = bound
        var sequence: UInt64 = 0
        for b in batches {
            try threads.applyBatch(b, after: &sequence)
            try context.flush()
        }
        return store
    }

    /// The threads of the Inbox listing, each as its emails' ids sorted.
    private func threads(_ store: InMemoryKeyValueStore) throws -> [[String]] {
        let reader = ThreadsReader(Snapshot(store))
        let page = try reader.page(scope: "acct", folder: "INBOX", category: nil, after: nil, limit: 100)
        return try page.threads.map { try reader.emails(thread: $0.id).map(\.id).sorted() }.sorted { $0.first! < $1.first! }
    }

    private func assertSameTables(_ a: InMemoryKeyValueStore, _ b: InMemoryKeyValueStore, _ message: String) {
        XCTAssertEqual(a.tableNames, b.tableNames, message)
        for t in a.tableNames {
            XCTAssertEqual(a.entries(t).map(\.0), b.entries(t).map(\.0), "\(message): \(t)")
            XCTAssertEqual(a.entries(t).map(\.1), b.entries(t).map(\.1), "\(message): \(t)")
        }
    }

    func testAStarThreadPastTheBoundGoesOnInOneThreadAtATime() throws {
        // A root and 12 replies to it: 5 copies a thread, so 5, 5 and 3.
        let events = [mail("m00", at: 0)] + (1...12).map { mail(String(format: "m%02d", $0), refs: ["m00@x"], at: $0) }
        let whole = try fold([events], bound: bound)
        XCTAssertEqual(try threads(whole), [
            ["m00", "m01", "m02", "m03", "m04"], ["m05", "m06", "m07", "m08", "m09"], ["m10", "m11", "m12"],
        ])
        // One event a batch, and batches of three: the same view, table by table.
        assertSameTables(try fold(events.map { [$0] }, bound: bound), whole, "one event a batch")
        assertSameTables(try fold(stride(from: 0, to: events.count, by: 3).map { Array(events[$0..<min($0 + 3, events.count)]) }, bound: bound),
                         whole, "batches of three")
        // The standard bound keeps them in one thread.
        XCTAssertEqual(try threads(try fold([events], bound: .standard)).map(\.count), [13])
    }

    func testAChainPastTheBoundFollowsItsNewestPart() throws {
        // Each message replies to the one before and references every earlier one: the parts are consecutive.
        var events: [DomainEvent] = []
        for i in 0..<12 { events.append(mail(String(format: "c%02d", i), refs: (0..<i).map { String(format: "c%02d@x", $0) }, at: i)) }
        XCTAssertEqual(try threads(try fold([events], bound: bound)).map(\.count), [5, 5, 2])
        XCTAssertEqual(try threads(try fold([events], bound: bound)).map(\.first), ["c00", "c05", "c10"])
    }

    func testThreadsMergeOnlyWhileTheResultHasRoom() throws {
        // Two threads of 3 (a* and b*); a message linking both joins the older and leaves the other apart (3 + 3 + 1 > 5).
        let a = [mail("a0", at: 0), mail("a1", refs: ["a0@x"], at: 1), mail("a2", refs: ["a0@x"], at: 2)]
        let b = [mail("b0", at: 3), mail("b1", refs: ["b0@x"], at: 4), mail("b2", refs: ["b0@x"], at: 5)]
        let both = mail("x", refs: ["a0@x", "b0@x"], at: 6)
        XCTAssertEqual(try threads(try fold([a + b + [both]], bound: bound)), [["a0", "a1", "a2", "x"], ["b0", "b1", "b2"]])
        // With room for all seven, one thread, as without a bound.
        XCTAssertEqual(try threads(try fold([a + b + [both]], bound: ThreadBound(emails: 8, memberKeyBytes: 1 << 20))).map(\.count), [7])
        // A later reply to the unmerged thread stays in it.
        let later = mail("b3", refs: ["b0@x"], at: 7)
        XCTAssertEqual(try threads(try fold([a + b + [both, later]], bound: bound)), [["a0", "a1", "a2", "x"], ["b0", "b1", "b2", "b3"]])
    }

    func testManyLongReferencesFillAThreadByItsKeys() throws {
        // Each reply names 100 distinct references of 900 bytes: ~90 KB of keys a message, so a bound of 150 KB is passed by the second and fills the thread.
        let long = { (i: Int, j: Int) in String(repeating: "r", count: 880) + "-\(i)-\(j)@x" }
        let events = [mail("k00", at: 0)] + (1...6).map { i in mail(String(format: "k%02d", i), refs: ["k00@x"] + (0..<100).map { long(i, $0) }, at: i) }
        let keyBound = ThreadBound(emails: 1_000, memberKeyBytes: 150_000)
        let parts = try threads(try fold([events], bound: keyBound))
        XCTAssertEqual(parts.map(\.count), [3, 2, 2])
        assertSameTables(try fold(events.map { [$0] }, bound: keyBound), try fold([events], bound: keyBound), "one event a batch")
    }

    func testAnExpungeGivesAFullThreadRoomAgain() throws {
        let events = [mail("m00", at: 0)] + (1...4).map { mail(String(format: "m%02d", $0), refs: ["m00@x"], at: $0) }
        let expunge = DomainEvent.emailExpunged(EmailExpunged(emailID: "m02", folder: "INBOX"))
        let after = mail("m05", refs: ["m00@x"], at: 5)
        let store = try fold([events, [expunge], [after]], bound: bound)
        XCTAssertEqual(try threads(store), [["m00", "m01", "m03", "m04", "m05"]])
        assertSameTables(try fold([events + [expunge, after]], bound: bound), store, "one batch")
    }

    /// The thread that took a full thread's mail merged into an older one: mail linked to the full thread goes on where
    /// that thread's mail went (its forwarding entry), not in a new thread.
    func testMailOfAFullThreadFollowsItsTakerIntoAMerge() throws {
        let four = ThreadBound(emails: 4, memberKeyBytes: 1 << 20)
        let events = [mail("r", at: 0), mail("r1", refs: ["r@x"], at: 1), mail("r2", refs: ["r@x"], at: 2),
                      mail("r3", refs: ["r@x"], at: 3),           // r's thread full
                      mail("x0", at: 4),                           // an older thread than r4's
                      mail("r4", refs: ["r@x"], at: 5),            // takes r's mail
                      mail("m", refs: ["r4@x", "x0@x"], at: 6),    // r4's thread merges into x0's
                      mail("r5", refs: ["r@x"], at: 7)]            // r's mail: where r4's went
        let whole = try fold([events], bound: four)
        XCTAssertEqual(try threads(whole), [["m", "r4", "r5", "x0"], ["r", "r1", "r2", "r3"]])
        assertSameTables(try fold(events.map { [$0] }, bound: four), whole, "one event a batch")
    }
}
