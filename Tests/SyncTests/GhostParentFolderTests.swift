import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// A parent folder another client deletes while it has children (real Dovecot): the server keeps listing it
/// (`* LIST () "/" P`, no `\Noselect`) and answers its EXAMINE `NO Mailbox doesn't exist`. Its mail is recorded gone and
/// the sync succeeds; it had been taken for a refused folder: its deleted mail stayed in the views for ever and every
/// sync exited 5 advising to check the read right.
final class GhostParentFolderTests: SyncTestCase {
    func testAParentDeletedWithChildrenHasItsMailRecordedGone() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "k0", subject: "Kept", parent: nil, flags: [String]())], via: c)
        try fill("P", [(id: "p1", subject: "P1", parent: nil, flags: [String]()), (id: "p2", subject: "P2", parent: nil, flags: [])], via: c)
        try fill("P/Child", [(id: "c1", subject: "C1", parent: nil, flags: [String]())], via: c)
        try addAccount()
        try sync()
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "P"), 2)

        try c.delete(MailboxName("P"))
        XCTAssertTrue(try c.list().contains { $0.mailbox.name == "P" && $0.isSelectable }, "Dovecot still lists it")
        let r = try sync()
        XCTAssertEqual(r.failedFolders.map(\.folder), [], "no refusal")
        let gone = try XCTUnwrap(r.folders.first { $0.folder == "P" }, "\(r.folders.map(\.folder))")
        XCTAssertTrue(gone.removed)
        XCTAssertEqual(gone.expunged, 2)
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "P"), 0)
        XCTAssertEqual(try threads("INBOX").count, 1)
        XCTAssertEqual(try views.unreadCount(account: accountName, folder: "P", category: "all"), 0, "its mail is gone from the views")
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "P/Child"), 1, "the child is kept")
        try assertListedAsParentOnly()

        // Later syncs pass it: exit 0, nothing said of a refusal, nothing recorded once it is known again.
        views = nil
        store = nil
        let text = try mailstore(["sync"])
        XCTAssertFalse(text.stderr.contains("not synced"), text.stderr)
        let again = try mailstore(["sync", "--json"])
        XCTAssertTrue(again.stdout.contains("\"failedFolders\":[]"), again.stdout)
        XCTAssertTrue(again.stdout.contains("\"folderEvents\":0"), again.stdout)
        let listed = try mailstore(["project", "--view", "folders"]).stdout.split(separator: "\n").map { $0.split(separator: " ").dropFirst().map(String.init) }
        XCTAssertTrue(listed.contains(["P", "parent", "—"]) && listed.contains(["Child", "custom", "—", "P/Child"]), "\(listed)")
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        try assertListedAsParentOnly()

        // Made a mailbox again (the same name): its new mail arrives.
        try c.create(MailboxName("P"))
        try fill("P", [(id: "p3", subject: "P3", parent: nil, flags: [String]())], via: c)
        try sync()
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "P"), 1)
        XCTAssertEqual(try FetchThreadsUseCase(views: views).fetchFolders(accountId: accountName).first { $0.id == "P" }?.selectable, true,
                       "a folder again")
        try assertViewsMatchServer()
    }

    /// The parent the server says does not exist is listed only above its child, holding no mail (`selectable` false),
    /// never as an empty folder of its own.
    private func assertListedAsParentOnly(file: StaticString = #filePath, line: UInt = #line) throws {
        let folders = try FetchThreadsUseCase(views: views).fetchFolders(accountId: accountName)
        let at = try XCTUnwrap(folders.firstIndex { $0.id == "P" }, "\(folders.map(\.id))", file: file, line: line)
        XCTAssertFalse(folders[at].selectable, file: file, line: line)
        XCTAssertEqual(folders[at].badge, nil, file: file, line: line)
        XCTAssertEqual(folders.dropFirst(at + 1).first.map { [$0.id, "\($0.depth)"] }, ["P/Child", "1"], file: file, line: line)
    }

    /// A store that a build before 2026-12-07 synced holds the ghost parent found again as an ordinary folder (its mail
    /// recorded gone, then the LIST naming it again), listed empty for ever: the next sync records it as a name with no
    /// mailbox, once; and once its child is gone too the server lists neither and both are recorded removed.
    func testAGhostParentListedEmptyByAnOlderBuildIsListedOnlyAboveItsChildAfterTheNextSync() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "k0", subject: "Kept", parent: nil, flags: [String]())], via: c)
        try fill("P", [(id: "p1", subject: "P1", parent: nil, flags: [String]())], via: c)
        try fill("P/Child", [(id: "c1", subject: "C1", parent: nil, flags: [String]())], via: c)
        try addAccount()
        try sync()
        try c.delete(MailboxName("P"))
        try sync()
        // What the older build recorded at its next sync: the name found again, an ordinary folder.
        try store.commit([NewEvent(event: .folderDiscovered(FolderDiscovered(folder: "P", displayName: "P", role: .custom, delimiter: "/")),
                                   account: accountName, stream: .folder(account: accountName, path: "P"), actor: .sync)])
        XCTAssertEqual(try FetchThreadsUseCase(views: views).fetchFolders(accountId: accountName).first { $0.id == "P" }?.selectable, true)
        let r = try sync()
        XCTAssertEqual(r.failedFolders.map(\.folder), [])
        XCTAssertNil(r.folders.first { $0.folder == "P" && $0.removed }, "no mail of it to record gone")
        try assertListedAsParentOnly()
        let before = try store.head().sequence
        try sync()
        XCTAssertEqual(try store.head().sequence, before, "nothing more recorded")

        try c.delete(MailboxName("P/Child"))
        let last = try sync()
        XCTAssertEqual(Set(last.folders.filter(\.removed).map(\.folder)), ["P", "P/Child"], "\(last.folders)")
        let ids = try FetchThreadsUseCase(views: views).fetchFolders(accountId: accountName).map(\.id)
        XCTAssertTrue(!ids.contains("P") && !ids.contains("P/Child") && ids.contains("INBOX"), "\(ids)")
    }

    /// A NO with `[NONEXISTENT]` or "Mailbox doesn't exist" is a folder gone; a refusal of rights and other NOs are not.
    func testWhatCountsAsAFolderGone() {
        func no(_ command: String, _ text: String) -> SyncError { .server(.commandFailed(command: command, status: "NO", text: text)) }
        XCTAssertTrue(SyncEngine.isFolderGone(no("EXAMINE", "Mailbox doesn't exist: P (0.001 + 0.000 secs).")))
        XCTAssertTrue(SyncEngine.isFolderGone(no("SELECT", "Mailbox does not exist")))
        XCTAssertTrue(SyncEngine.isFolderGone(no("EXAMINE", "[NONEXISTENT] Unknown Mailbox: P (now in authenticated state) (Failure)")))
        XCTAssertFalse(SyncEngine.isFolderGone(no("EXAMINE", "Permission denied")))
        XCTAssertFalse(SyncEngine.isFolderGone(no("UID FETCH", "Mailbox doesn't exist")))
        XCTAssertFalse(SyncEngine.isFolderGone(no("EXAMINE", "Some mailbox doesn't exist but this one does")))
        XCTAssertFalse(SyncEngine.isFolderGone(SyncError.server(.commandFailed(command: "EXAMINE", status: "BAD", text: "Mailbox doesn't exist"))))
    }
}
