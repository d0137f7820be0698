import EventModel
import Projections
import XCTest

/// A batch that marks many threads (a folder's role changing) writes their rows in parts, and the views are
/// those of a fold that recomputes them all at once.
final class ThreadsRecomputeChunkTests: XCTestCase {
    private func received(_ i: Int) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: "m\(i)", folder: "Box", messageID: "m\(i)@x", subject: "Subject \(i)",
                                     from: [EmailAddress(name: nil, email: "s\(i)@example.com")],
                                     date: Timestamp(microseconds: 1_700_000_000_000_000 + Int64(i) * 1_000_000), dateSource: .header,
                                     size: 10, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
    }

    func testARoleChangeRecomputesItsFoldersThreadsInParts() throws {
        let mail = (0..<20).map(received)
        let role = DomainEvent.folderDiscovered(FolderDiscovered(folder: "Box", displayName: "Box", role: .inbox))

        let store = CountingStore()
        let context = FoldContext(store: store)
        let threads = ThreadsProjector(context: context)
        threads.recomputeChunk = 3
        var sequence: UInt64 = 0
        func fold(_ events: [DomainEvent], flushing: Bool = true) throws {
            try threads.applyBatch(events, after: &sequence)
            if flushing { try context.flush() }
        }
        try fold(mail)
        let before = store.writes
        try fold([role], flushing: false)
        XCTAssertGreaterThan(store.writes, before, "the 20 rows were written in parts while they were recomputed")
        try context.flush()

        let whole = FoldHarness(types: [ThreadsProjector.self])
        try whole.fold(mail + [role], account: "acct")
        XCTAssertEqual(store.inner.tableNames, whole.store.tableNames)
        for table in whole.store.tableNames {
            XCTAssertEqual(store.inner.entries(table).map(\.0), whole.store.entries(table).map(\.0), table)
            XCTAssertEqual(store.inner.entries(table).map(\.1), whole.store.entries(table).map(\.1), table)
        }
        let unified = try ThreadsReader(Snapshot(store.inner)).page(scope: "*", folder: "INBOX", category: nil, after: nil, limit: 50)
        XCTAssertEqual(unified.threads.count, 20)

        // Folded one by one after a failure, nothing is written before the event's end.
        context.writesInParts = false
        let held = store.writes
        try fold([DomainEvent.folderDiscovered(FolderDiscovered(folder: "Box", displayName: "Box", role: .archive))], flushing: false)
        XCTAssertEqual(store.writes, held, "no part written while writesInParts is off")
        try context.flush()
        XCTAssertEqual(try ThreadsReader(Snapshot(store.inner)).page(scope: "*", folder: "INBOX", category: nil, after: nil, limit: 50).threads.count, 0)
    }

    /// Index entries that are not what the projector writes (a damaged view file) under a folder whose role
    /// changes: skipped, the fold goes on and moves the real threads.
    func testDamagedIndexEntriesUnderAFolderDoNotStopARoleChange() throws {
        let store = CountingStore()
        let context = FoldContext(store: store)
        let threads = ThreadsProjector(context: context)
        var sequence: UInt64 = 0
        func fold(_ events: [DomainEvent]) throws {
            try threads.applyBatch(events, after: &sequence)
            try context.flush()
        }
        try fold((0..<5).map(received))
        let prefix = ThreadsProjector.indexPrefix(scope: "acct", folder: .path("Box"), category: nil).bytes
        for junk in [prefix, prefix + [0xFF], prefix + [UInt8](repeating: 0xFF, count: 300), prefix + [1, 2, 3, 0, 0, 0]] {
            try store.inner.put("threads.index", junk, [])
        }
        try fold([.folderDiscovered(FolderDiscovered(folder: "Box", displayName: "Box", role: .inbox))])
        let unified = try ThreadsReader(Snapshot(store.inner)).page(scope: "*", folder: "INBOX", category: nil, after: nil, limit: 50)
        XCTAssertEqual(unified.threads.count, 5)
    }
}
