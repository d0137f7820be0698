import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// A folder that comes back under a name and UIDVALIDITY seen before (real Dovecot keeps UIDVALIDITY across RENAME):
/// its mail shows again. Its ids had been those of the copies recorded gone when it left, the log dropped them as
/// duplicates, and the folder stayed empty for good while every sync fetched its bodies again and said "N new".
final class FolderReturnTests: SyncTestCase {
    private func projects() -> [(id: String, subject: String, parent: String?, flags: [String])] {
        (1...3).map { (id: "p\($0)", subject: "Project \($0)", parent: nil, flags: [String]()) }
    }

    func testAFolderRenamedAwayAndBackShowsItsMailAgain() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "k0", subject: "Kept", parent: nil, flags: [String]())], via: c)
        try fill("Projects", projects(), via: c)
        try addAccount()
        try sync()
        XCTAssertEqual(try threads("Projects").count, 3)

        try c.rename(MailboxName(path("Projects")), to: MailboxName(path("Old")))
        try sync()
        XCTAssertEqual(try threads("Old").count, 3)

        try c.rename(MailboxName(path("Old")), to: MailboxName(path("Projects")))
        let back = try sync()
        XCTAssertEqual(back.folders.first { $0.folder == path("Projects") }?.received, 3)
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: path("Projects")), 3)
        XCTAssertEqual(try threads("Projects").count, 3, "its mail shows again")
        try assertViewsMatchServer()
        let again = try sync()
        XCTAssertEqual(again.received, 0, "nothing fetched again")

        // Away and back once more (each time a generation of its own).
        try c.rename(MailboxName(path("Projects")), to: MailboxName(path("Old")))
        try sync()
        XCTAssertEqual(try threads("Old").count, 3)
        try assertViewsMatchServer()
        try c.rename(MailboxName(path("Old")), to: MailboxName(path("Projects")))
        try sync()
        XCTAssertEqual(try threads("Projects").count, 3)
        try assertViewsMatchServer()
        let received = try receivedEvents()

        // A rebuild from the log gives the same views.
        let rebuild = try views.compareWithRebuild()
        XCTAssertTrue(rebuild.differences.isEmpty, "verify --views: \(rebuild.differences)")
        XCTAssertEqual(try sync().received, 0)
        XCTAssertEqual(try receivedEvents(), received)
    }

    /// Mail fetched whose events the log has already (nothing appended) is not counted new.
    func testMailFetchedButAlreadyInTheLogIsNotCountedNew() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "k0", subject: "Kept", parent: nil, flags: [String]())], via: c)
        try addAccount()
        XCTAssertEqual(try sync().received, 1)
        // The sync view made to forget the copy (the log keeps its `EmailReceived`): the next sync fetches it again.
        let copy = try XCTUnwrap(try views.syncedCopies(account: accountName, folder: "INBOX").values.first)
        try store.commit([NewEvent(event: .emailExpunged(EmailExpunged(emailID: copy.emailID, folder: "INBOX", uid: copy.uid)),
                                   account: accountName, stream: .email(copy.emailID), actor: .sync)])
        let r = try sync()
        XCTAssertEqual(r.received, 0, "fetched, nothing appended: not new")
    }
}
