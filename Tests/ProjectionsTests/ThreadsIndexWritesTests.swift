import EventModel
import Projections
import XCTest

/// Recomputing a thread writes only the index entries that changed: a flag that does not move the thread in any
/// listing leaves its index entries and its record unwritten, and the views are those of a fold from scratch.
final class ThreadsIndexWritesTests: XCTestCase {
    private let store = CountingStore()
    private lazy var context = FoldContext(store: store)
    private lazy var threads = ThreadsProjector(context: context)
    private var sequence: UInt64 = 0
    private var folded: [DomainEvent] = []

    /// Folds `events` as one batch.
    private func fold(_ events: [DomainEvent]) throws {
        try threads.applyBatch(events, after: &sequence)
        try context.flush()
        folded += events
    }

    private func message(_ i: Int, folder: String = "INBOX", flags: [String] = []) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: "m\(i)", folder: folder, messageID: "m\(i)@x",
                                     references: i == 0 ? [] : ["m0@x"], subject: "Plans",
                                     from: [EmailAddress(name: nil, email: "s\(i)@example.com")],
                                     date: Timestamp(microseconds: 1_700_000_000_000_000 + Int64(i) * 1_000_000),
                                     dateSource: .header, flags: flags, size: 10,
                                     blob: BlobHash(bytes: [UInt8](repeating: UInt8(i + 1), count: 32))!))
    }

    private func writes(_ table: String) -> Int { store.puts[table, default: 0] + store.deletes[table, default: 0] }

    /// The views equal those of one fold of every event from an empty store.
    private func assertEqualToAFoldFromScratch(file: StaticString = #filePath, line: UInt = #line) throws {
        let whole = FoldHarness(types: [ThreadsProjector.self])
        try whole.fold(folded, account: "acct")
        XCTAssertEqual(store.inner.tableNames, whole.store.tableNames, file: file, line: line)
        for table in whole.store.tableNames {
            XCTAssertEqual(store.inner.entries(table).map(\.0), whole.store.entries(table).map(\.0), table, file: file, line: line)
            XCTAssertEqual(store.inner.entries(table).map(\.1), whole.store.entries(table).map(\.1), table, file: file, line: line)
        }
    }

    private func page(_ folder: String, scope: String = "acct") throws -> [String] {
        try page(.path(folder), scope: scope)
    }

    private func page(_ folder: FolderPart, scope: String = "acct") throws -> [String] {
        try ThreadsReader(Snapshot(store.inner)).page(scope: scope, folder: folder, category: nil, after: nil, limit: 50).threads.map(\.id)
    }

    func testAFlagThatMovesNoListingWritesNoIndexEntryAndNoThreadRecord() throws {
        try fold([.folderDiscovered(FolderDiscovered(folder: "INBOX", displayName: "Inbox", role: .inbox))])
        try fold((0..<3).map { message($0) })
        XCTAssertEqual(try page("INBOX", scope: "*"), ["m0"])
        store.reset()

        try fold([.flagsChanged(FlagsChanged(emailID: "m1", folder: "INBOX", flags: ["\\Seen"], added: ["\\Seen"]))])
        XCTAssertEqual(writes("threads.emails"), 1, "the copy's flags")
        XCTAssertEqual(writes("threads.rows"), 1, "the row's unread count")
        XCTAssertEqual(writes("threads.index"), 0, "the thread is listed where it was")
        XCTAssertEqual(writes("threads.threads"), 0, "its index keys are the same")
        XCTAssertEqual(try ThreadsReader(Snapshot(store.inner)).page(scope: "acct", folder: "INBOX", category: nil, after: nil, limit: 5)
            .threads.first?.unreadCount, 2)
        try assertEqualToAFoldFromScratch()
    }

    func testStarringAddsOnlyTheStarredListingsEntries() throws {
        try fold([.folderDiscovered(FolderDiscovered(folder: "INBOX", displayName: "Inbox", role: .inbox))])
        try fold((0..<3).map { message($0) })
        store.reset()

        try fold([.flagsChanged(FlagsChanged(emailID: "m2", folder: "INBOX", flags: ["\\Flagged"], added: ["\\Flagged"]))])
        XCTAssertEqual(store.deletes["threads.index", default: 0], 0, "no entry of the Inbox listings is removed")
        XCTAssertEqual(store.puts["threads.index", default: 0], 1, "the thread is listed under the virtual Starred folder (one entry: no tab category)")
        XCTAssertEqual(writes("threads.threads"), 1, "its index keys changed")
        XCTAssertEqual(try page(ThreadsProjector.virtualStarred), ["m0"])
        XCTAssertEqual(try page("INBOX"), ["m0"])
        try assertEqualToAFoldFromScratch()

        store.reset()
        try fold([.flagsChanged(FlagsChanged(emailID: "m2", folder: "INBOX", flags: [], removed: ["\\Flagged"]))])
        XCTAssertEqual(store.puts["threads.index", default: 0], 0)
        XCTAssertEqual(store.deletes["threads.index", default: 0], 1)
        XCTAssertEqual(try page(ThreadsProjector.virtualStarred), [])
        try assertEqualToAFoldFromScratch()
    }

    func testAThreadMovedToAnotherFolderLeavesTheOldListings() throws {
        try fold([.folderDiscovered(FolderDiscovered(folder: "INBOX", displayName: "Inbox", role: .inbox)),
                  .folderDiscovered(FolderDiscovered(folder: "Archive", displayName: "Archive", role: .archive))])
        try fold((0..<3).map { message($0) } + [message(3, folder: "Sent")])
        XCTAssertEqual(try page("INBOX"), ["m0"])
        // The copies in the Inbox are seen again in the Archive (re-delivered facts), the Sent one stays.
        try fold((0..<3).map { message($0, folder: "Archive") })
        XCTAssertEqual(try page("INBOX"), [])
        XCTAssertEqual(try page("INBOX", scope: "*"), [])
        XCTAssertEqual(try page("Archive"), ["m0"])
        XCTAssertEqual(try page("Sent"), ["m0"])
        try assertEqualToAFoldFromScratch()
    }

    func testTheDifferenceOfManyKeysIsTheSameAsOfFew() {
        let old = (0..<40).map { [UInt8(0), UInt8($0)] }
        let new = (20..<60).map { [UInt8(0), UInt8($0)] } + [[0, 25]]
        let d = ThreadsProjector.difference(from: old, to: new)
        XCTAssertEqual(d.removed, (0..<20).map { [UInt8(0), UInt8($0)] })
        XCTAssertEqual(d.added, (40..<60).map { [UInt8(0), UInt8($0)] })
        let few = ThreadsProjector.difference(from: Array(old.prefix(8)), to: [[0, 3], [0, 9], [0, 3]])
        XCTAssertEqual(few.removed, [[0, 0], [0, 1], [0, 2], [0, 4], [0, 5], [0, 6], [0, 7]])
        XCTAssertEqual(few.added, [[0, 9]])
    }
}
