import EventModel
import Projections
import XCTest

/// The unread view's counters per scope (folder, account, badge; unread and in total) as one message's copies
/// arrive, are read, move and go, folded in memory; and the per-scope state kept in one record per message. (The
/// counts by category are the threads view's: `CategoriesTests`.)
final class UnreadScopesTests: XCTestCase {
    let blob = BlobHash(bytes: [UInt8](repeating: 5, count: 32))!

    func received(_ id: String, folder: String, messageID: String, flags: [String] = []) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: id, folder: folder, uid: 1, uidValidity: 1, messageID: messageID, subject: "S",
                                     from: [EmailAddress(name: nil, email: "a@example.com")],
                                     date: Timestamp(microseconds: 1_700_000_000_000_000), dateSource: .received,
                                     flags: flags, size: 10, blob: blob))
    }

    /// (unread, total) of `folder`, the account's unread, the badge's (account and every account).
    func counts(_ h: FoldHarness, _ folder: String) throws -> [Int] {
        let r = UnreadReader(h.snapshot)
        return [try r.count(account: "a", folder: folder, category: "all"),
                try r.count(account: "a", folder: folder, category: UnreadProjector.totalCategory),
                try r.count(account: "a", folder: UnreadProjector.accountScope, category: "all"),
                try r.count(account: "a", folder: UnreadProjector.badgeScope, category: "all"),
                try r.count(account: "*", folder: UnreadProjector.badgeScope, category: "all")]
    }

    /// A folder's Inbox role learnt in the middle of a batch counts in the badge the copies moved into it after,
    /// not those before: the roles the batch asked about (`InboxMemo`) are forgotten when one is set.
    func testARoleLearntMidBatchCountsTheCopiesMovedInAfterIt() throws {
        let h = FoldHarness(types: [UnreadProjector.self])
        try h.fold([.folderDiscovered(FolderDiscovered(folder: "INBOX", displayName: "Inbox", role: .inbox))], account: "a")
        try h.fold([received("e1", folder: "INBOX", messageID: "m1@x"), received("e2", folder: "INBOX", messageID: "m2@x")], account: "a")
        XCTAssertEqual(try counts(h, "INBOX"), [2, 2, 2, 2, 2])
        func move(_ id: String) -> DomainEvent {
            .threadMoved(ThreadAction(threadIDs: ["t"], targets: [ActionTarget(emailID: id, folder: "INBOX", flags: [])], destination: "Box"))
        }
        // One batch: e1 moves to Box (no role yet: not an Inbox), Box becomes an Inbox, e2 moves there too.
        try h.fold([move("e1"), .folderDiscovered(FolderDiscovered(folder: "Box", displayName: "Box", role: .inbox)), move("e2")], account: "a")
        // e1 left the badge with no Inbox to count it; e2 went from one Inbox to another.
        XCTAssertEqual(try counts(h, "Box"), [2, 2, 2, 1, 1])
        XCTAssertEqual(try counts(h, "INBOX"), [0, 0, 2, 1, 1])
    }

    /// A batch moving copies through more folders than the roles it remembers (`InboxMemo.capacity`), every
    /// other one an Inbox, counts each move by its folder's own role.
    func testMovesThroughMoreFoldersThanTheMemoHoldsCountByEachRole() throws {
        let h = FoldHarness(types: [UnreadProjector.self])
        let folders = (0..<20).map { "F\($0)" }
        try h.fold(folders.enumerated().map { i, f in
            .folderDiscovered(FolderDiscovered(folder: f, displayName: f, role: i % 2 == 0 ? .inbox : .custom))
        }, account: "a")
        try h.fold((0..<20).map { received("e\($0)", folder: "F0", messageID: "m\($0)@x") }, account: "a")
        XCTAssertEqual(try counts(h, "F0")[3], 20)
        // One batch: message i goes F0 -> F1 -> ... -> F(i), each move asking the roles of two folders.
        var moves: [DomainEvent] = []
        for i in 1..<20 {
            for step in 1...i {
                moves.append(.threadMoved(ThreadAction(threadIDs: ["t"], targets: [ActionTarget(emailID: "e\(i)", folder: "F\(step - 1)", flags: [])],
                                                      destination: "F\(step)")))
            }
        }
        try h.fold(moves, account: "a")
        // Messages 0, 2, 4, ..., 18 end in an Inbox-role folder.
        XCTAssertEqual(try counts(h, "F0")[3], 10)
        for f in folders { XCTAssertEqual(try counts(h, f)[0], 1, f) }
    }

    func testAMessagesCopiesCountOncePerScopeThroughReadsMovesCategoriesAndExpunges() throws {
        let h = FoldHarness(types: [UnreadProjector.self])
        try h.fold([.folderDiscovered(FolderDiscovered(folder: "INBOX", displayName: "Inbox", role: .inbox)),
                    .folderDiscovered(FolderDiscovered(folder: "All", displayName: "All Mail", role: .all)),
                    .folderDiscovered(FolderDiscovered(folder: "Work", displayName: "Work", role: .custom))], account: "a")
        // Two copies of one message, both unread: once in each folder, once in the account and the badge.
        try h.fold([received("e1", folder: "INBOX", messageID: "m1@x"), received("e2", folder: "All", messageID: "m1@x")], account: "a")
        XCTAssertEqual(try counts(h, "INBOX"), [1, 1, 1, 1, 1])
        XCTAssertEqual(try counts(h, "All"), [1, 1, 1, 1, 1])

        // Categorized: nothing changes here (the unread view has no counters by category since its schema 5).
        try h.fold([.emailCategorized(EmailCategorized(emailID: "e1", category: .primary))], account: "a")
        XCTAssertEqual(try counts(h, "INBOX"), [1, 1, 1, 1, 1])
        XCTAssertEqual(try UnreadReader(h.snapshot).count(account: "a", folder: UnreadProjector.badgeScope, category: "primary"), 0)

        // One copy read: that folder has no unread, and neither has the account (a message is unread while
        // none of its copies is read); the other folder still counts it.
        try h.fold([.flagsChanged(FlagsChanged(emailID: "e2", folder: "All", flags: ["\\Seen"]))], account: "a")
        XCTAssertEqual(try counts(h, "All"), [0, 1, 0, 1, 1])
        XCTAssertEqual(try counts(h, "INBOX"), [1, 1, 0, 1, 1])

        // The Inbox copy moves to Work unread: the badge drops, Work counts it, the account is unchanged.
        try h.fold([.threadMoved(ThreadAction(threadIDs: ["t"], targets: [ActionTarget(emailID: "e1", folder: "INBOX", flags: [])],
                                              destination: "Work"))], account: "a")
        XCTAssertEqual(try counts(h, "INBOX"), [0, 0, 0, 0, 0])
        XCTAssertEqual(try counts(h, "Work"), [1, 1, 0, 0, 0])

        // The read copy goes: the message is unread in the account again.
        try h.fold([.emailExpunged(EmailExpunged(emailID: "e2", folder: "All"))], account: "a")
        XCTAssertEqual(try counts(h, "All"), [0, 0, 1, 0, 0])
        XCTAssertEqual(try counts(h, "Work"), [1, 1, 1, 0, 0])

        // The per-scope state is one record per message; the last copy gone, the record goes.
        let key = Key("a", EmailReceived(emailID: "e1", folder: "Work", messageID: "m1@x", subject: "", date: Timestamp(microseconds: 0),
                                          dateSource: .none, size: 0, blob: blob).messageKey).bytes
        let info = try XCTUnwrap(try h.snapshot.get(UnreadProjector.infosTable, key))
        XCTAssertEqual(info.folders.map(\.folder), ["Work"])
        XCTAssertEqual(info.account.copies, 1)
        try h.fold([.emailExpunged(EmailExpunged(emailID: "e1", folder: "Work"))], account: "a")
        XCTAssertEqual(try counts(h, "Work"), [0, 0, 0, 0, 0])
        XCTAssertNil(try h.snapshot.get(UnreadProjector.infosTable, key))
        var rowsElsewhere = 0
        try h.store.scan("unread.messages", from: []) { _, _ in rowsElsewhere += 1; return true }
        XCTAssertEqual(rowsElsewhere, 0, "no table of per-scope rows beside the records")
    }

    func testARecordThatSaysNothingIsDeletedAndFoldersStaySorted() {
        var info = MessageInfo()
        var one = CopyCount()
        one.copies = 1
        info.setCopies(one, in: "b")
        info.setCopies(one, in: "a")
        info.setCopies(one, in: "c")
        XCTAssertEqual(info.folders.map(\.folder), ["a", "b", "c"])
        info.setCopies(CopyCount(), in: "b")
        XCTAssertEqual(info.folders.map(\.folder), ["a", "c"])
        XCTAssertEqual(info.copies(in: "b"), CopyCount())
        info.setCopies(CopyCount(), in: "a")
        info.setCopies(CopyCount(), in: "c")
        XCTAssertTrue(info.isEmpty)
    }
}
