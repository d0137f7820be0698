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

        // Later syncs pass it: exit 0, nothing said of a refusal, nothing recorded once it is known again.
        views = nil
        store = nil
        let text = try mailstore(["sync"])
        XCTAssertFalse(text.stderr.contains("not synced"), text.stderr)
        let again = try mailstore(["sync", "--json"])
        XCTAssertTrue(again.stdout.contains("\"failedFolders\":[]"), again.stdout)
        XCTAssertTrue(again.stdout.contains("\"folderEvents\":0"), again.stdout)
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()

        // Made a mailbox again (the same name): its new mail arrives.
        try c.create(MailboxName("P"))
        try fill("P", [(id: "p3", subject: "P3", parent: nil, flags: [String]())], via: c)
        try sync()
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "P"), 1)
        try assertViewsMatchServer()
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
