import EventModel
import Projections
import XCTest

/// The views' side of provider semantics, folded in memory: the virtual Starred folder of accounts without
/// one, our drafts' server copies left out of the thread list and counted once, and the drafts' server state.
final class ProviderSemanticsTests: XCTestCase {
    let blob = BlobHash(bytes: [UInt8](repeating: 3, count: 32))!

    func received(_ id: String, folder: String, messageID: String, flags: [String] = [], day: Int64 = 1) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: id, folder: folder, uid: 1, uidValidity: 1, messageID: messageID, subject: "S \(id)",
                                     from: [EmailAddress(name: nil, email: "a@example.com")],
                                     date: Timestamp(microseconds: 1_700_000_000_000_000 + day * 86_400_000_000), dateSource: .received,
                                     flags: flags, size: 10, blob: blob))
    }

    func page(_ h: FoldHarness, _ account: String, _ folder: String) throws -> [String] {
        try page(h, account, .path(folder))
    }

    func page(_ h: FoldHarness, _ account: String, _ folder: FolderPart) throws -> [String] {
        try ThreadsReader(h.snapshot).page(scope: account, folder: folder, category: nil, after: nil, limit: 50).threads.map(\.id)
    }

    func testStarredThreadsAreListedOnceUnderTheVirtualStarredFolder() throws {
        let h = FoldHarness()
        try h.fold([
            .folderDiscovered(FolderDiscovered(folder: "INBOX", displayName: "Inbox", role: .inbox)),
            .folderDiscovered(FolderDiscovered(folder: "Archive", displayName: "Archive", role: .archive)),
            received("e1", folder: "INBOX", messageID: "m1@x", flags: ["\\Flagged"]),
            received("e2", folder: "Archive", messageID: "m1@x", flags: ["\\Flagged"]),  // a second copy of the same message
            received("e3", folder: "INBOX", messageID: "m3@x", day: 2),
        ], account: "a")
        XCTAssertEqual(try page(h, "a", ThreadsProjector.virtualStarred), ["e1"], "one row for the starred thread, not one per copy")
        try h.fold([.flagsChanged(FlagsChanged(emailID: "e3", folder: "INBOX", flags: ["\\Flagged"]))], account: "a")
        XCTAssertEqual(try page(h, "a", ThreadsProjector.virtualStarred), ["e3", "e1"], "newest first")
        try h.fold([.flagsChanged(FlagsChanged(emailID: "e1", folder: "INBOX", flags: [])),
                    .flagsChanged(FlagsChanged(emailID: "e2", folder: "Archive", flags: ["\\Seen"]))], account: "a")
        XCTAssertEqual(try page(h, "a", ThreadsProjector.virtualStarred), ["e3"], "unstarred everywhere: gone")
        XCTAssertEqual(try page(h, "other", ThreadsProjector.virtualStarred), [], "per account")
    }

    func testAnAccountWithItsOwnStarredFolderHasNoVirtualOne() throws {
        let h = FoldHarness()
        try h.fold([
            .folderDiscovered(FolderDiscovered(folder: "INBOX", displayName: "Inbox", role: .inbox)),
            .folderDiscovered(FolderDiscovered(folder: "[Gmail]/Starred", displayName: "Starred", role: .flagged)),
            received("e1", folder: "INBOX", messageID: "m1@x", flags: ["\\Flagged"]),
            received("e2", folder: "[Gmail]/Starred", messageID: "m1@x", flags: ["\\Flagged"]),
        ], account: "g")
        XCTAssertEqual(try page(h, "g", ThreadsProjector.virtualStarred), [])
        XCTAssertEqual(try page(h, "g", "[Gmail]/Starred"), ["e1"])
        // The Starred folder gone: the virtual one takes over for threads that change next.
        try h.fold([.folderRemoved(FolderRemoved(folder: "[Gmail]/Starred")),
                    .flagsChanged(FlagsChanged(emailID: "e1", folder: "INBOX", flags: ["\\Flagged", "\\Seen"]))], account: "g")
        XCTAssertEqual(try page(h, "g", ThreadsProjector.virtualStarred), ["e1"])
    }

    func testOurDraftsServerCopiesAreNoThreadAndCountOnce() throws {
        let h = FoldHarness()
        try h.fold([
            .folderDiscovered(FolderDiscovered(folder: "Drafts", displayName: "Drafts", role: .drafts)),
            .draftSaved(DraftSaved(draftID: "d1", draftVersion: 1, subject: "Hi", body: "x")),
            .draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .appending, draftVersion: 1, folder: "Drafts", messageID: "c1@x")),
            .draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .stored, draftVersion: 1, folder: "Drafts", messageID: "c1@x",
                                               uid: 5, uidValidity: 9)),
            received("s1", folder: "Drafts", messageID: "c1@x", flags: ["\\Draft", "\\Seen"]),     // ours, back through sync
            received("s2", folder: "Drafts", messageID: "other@x", flags: ["\\Draft", "\\Seen"]),  // written elsewhere
        ], account: "a")
        XCTAssertEqual(try page(h, "a", "Drafts"), ["s2"], "our copy is not a thread of its own")
        let drafts = DraftsReader(h.snapshot)
        XCTAssertEqual(try drafts.ownCopies(account: "a", folder: "Drafts"), 1)
        XCTAssertEqual(try drafts.drafts(account: "a").count, 1)
        XCTAssertEqual(try UnreadReader(h.snapshot).count(account: "a", folder: "Drafts", category: UnreadProjector.totalCategory), 2,
                       "the server's count holds both; the badge takes ours out (1 local + 2 - 1)")
        try h.fold([.emailExpunged(EmailExpunged(emailID: "s1", folder: "Drafts", uid: 5))], account: "a")
        XCTAssertEqual(try drafts.ownCopies(account: "a", folder: "Drafts"), 0)
    }

    func testTheServerStateKeepsEveryCopyUntilItIsRemoved() throws {
        let h = FoldHarness()
        func state() throws -> DraftServerState? { try DraftsReader(h.snapshot).serverState(account: "a", draftID: "d1") }
        try h.fold([
            .draftSaved(DraftSaved(draftID: "d1", draftVersion: 1, subject: "Hi", body: "x")),
            .draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .appending, draftVersion: 1, folder: "Drafts", messageID: "c1@x")),
        ], account: "a")
        XCTAssertEqual(try state()?.copies.map(\.stored), [false], "appending: the copy may be there")
        try h.fold([
            .draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .stored, draftVersion: 1, folder: "Drafts", messageID: "c1@x", uid: 1, uidValidity: 7)),
            .draftSaved(DraftSaved(draftID: "d1", draftVersion: 2, subject: "Hi", body: "xy")),
            .draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .failed, draftVersion: 2, reason: "NO [OVERQUOTA]", attempt: 1,
                                               retryAt: Timestamp(microseconds: 5))),
        ], account: "a")
        XCTAssertEqual(try state()?.attempts, 1)
        XCTAssertEqual(try state()?.problem, "NO [OVERQUOTA]")
        XCTAssertNil(try state()?.stored(version: 2))
        try h.fold([
            .draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .appending, draftVersion: 2, folder: "Drafts", messageID: "c2@x")),
            .draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .stored, draftVersion: 2, folder: "Drafts", messageID: "c2@x", uid: 2, uidValidity: 7)),
            .draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .removed, draftVersion: 1, folder: "Drafts", messageID: "c1@x", uid: 1)),
        ], account: "a")
        XCTAssertEqual(try state()?.copies.map(\.messageID), ["c2@x"])
        XCTAssertEqual(try state()?.attempts, 0, "a success clears the failure")
        try h.fold([.draftDeleted(DraftDeleted(draftID: "d1"))], account: "a")
        XCTAssertEqual(try DraftsReader(h.snapshot).serverStates(account: "a").map(\.draftID), ["d1"], "sent: its copy is still to delete")
        try h.fold([.draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .removed, draftVersion: 2, folder: "Drafts", messageID: "c2@x"))],
                   account: "a")
        XCTAssertNil(try state(), "nothing left to do")
        try h.fold([.draftSaved(DraftSaved(draftID: "d2", draftVersion: 1, subject: "", body: "")),
                    .draftCopyChanged(DraftCopyChanged(draftID: "d2", change: .localOnly, draftVersion: 1, reason: "no Drafts folder"))],
                   account: "a")
        XCTAssertEqual(try DraftsReader(h.snapshot).serverState(account: "a", draftID: "d2")?.localOnlyVersion, 1)
    }
}
