import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import Projections
import XCTest

/// Initial and incremental sync against the real Dovecot, and (the `...OnCourier`, `...OnCyrus` tests) against
/// Courier-IMAP and Cyrus IMAP.
final class SyncEngineTests: SyncTestCase {
    /// A mailbox with threads in several folders, some read.
    private func fillMailbox(_ c: IMAPConnection) throws {
        try fill("INBOX", [("a1", "Plans", nil, []), ("a2", "Re: Plans", "a1", ["\\Seen"]), ("a3", "Re: Plans", "a2", []),
                           ("b1", "Lunch?", nil, ["\\Seen", "\\Flagged"]), ("c1", "Report", nil, [])], via: c)
        try fill("Sent", [("s1", "Re: Lunch?", "b1", ["\\Seen"])], via: c)
        try fill("Archive", [("r1", "Old news", nil, ["\\Seen"]), ("r2", "Re: Old news", "r1", [])], via: c)
        try fill("Projects", [("p1", "Kickoff", nil, []), ("p2", "Re: Kickoff", "p1", ["$Important"])], via: c)
    }

    func testInitialSyncGivesViewsThatMatchTheServer() throws {
        let c = try server()
        defer { c.logout() }
        try fillMailbox(c)
        try addAccount()
        let report = try sync(batch: 2)
        XCTAssertEqual(report.received, 10)
        try assertViewsMatchServer()
        let roles = Dictionary(uniqueKeysWithValues: try views.folders(account: accountName).map { ($0.path, $0.role) })
        XCTAssertEqual(roles["INBOX"], .inbox)
        XCTAssertEqual(roles[path("Sent")], .sent)
        XCTAssertEqual(roles[path("Archive")], .archive)
        XCTAssertEqual(roles[path("Trash")], .trash)
        XCTAssertEqual(roles[path("Junk")], .junk)
        XCTAssertEqual(roles[path("Drafts")], .drafts)
        XCTAssertEqual(roles[path("Projects")], .custom)
        XCTAssertEqual(try threads("INBOX"), [["a1@example.com", "a2@example.com", "a3@example.com"],
                                              ["b1@example.com", "s1@example.com"], ["c1@example.com"]])
        XCTAssertEqual(try threads("Projects"), [["p1@example.com", "p2@example.com"]])
        XCTAssertEqual(try views.unreadCount(account: accountName, folder: UnreadProjector.badgeScope, category: "all"), 3)
        // BODY.PEEK[] leaves \Seen alone on the server.
        XCTAssertEqual(try serverFlags("INBOX", via: c).values.filter { !$0.contains("\\Seen") }.count, 3)
        // The stored bytes are the server's bytes.
        let inbox = try views.syncedCopies(account: accountName, folder: "INBOX")
        let first = try XCTUnwrap(inbox.values.first { $0.messageID == "a1@example.com" })
        let stored = try XCTUnwrap(try store.email(id: first.emailID)).payload
        XCTAssertEqual(try store.log.blob(stored.blob), SyncTestCase.message("a1", subject: "Plans", day: 1))
        XCTAssertEqual(stored.uid, first.uid)
    }

    /// A message the server says is larger than a message may be (64 MiB) is not fetched and named: the folder's other
    /// mail and the folders after it still sync, at every sync (one such message had stopped the account's sync). A sync
    /// with nothing changed appends nothing, as in a folder without one (it had added two checkpoints at every sync).
    func testAMessageOverTheLimitIsSkippedAndTheRestSyncs() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [("a1", "Plans", nil, [])], via: c)
        let big = Array(("From: a@example.com\r\nSubject: Big\r\nMessage-ID: <big@example.com>\r\n\r\n").utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: (64 << 20) + 1_000) + Array("\r\n".utf8)
        let bigUID = try XCTUnwrap(c.append(to: MailboxName("INBOX"), message: big)).uid
        try fill("INBOX", [("a2", "Later", nil, [])], via: c)
        try fill("Projects", [("p1", "Kickoff", nil, [])], via: c)
        try addAccount()
        for round in 0..<3 {
            let report = try sync()
            let inbox = try XCTUnwrap(report.folders.first { $0.folder == "INBOX" })
            XCTAssertEqual(inbox.skippedTooLarge, [bigUID], "round \(round)")
            XCTAssertEqual(Set(try views.syncedCopies(account: accountName, folder: "INBOX").values.compactMap(\.messageID)),
                           ["a1@example.com", "a2@example.com"], "round \(round)")
            XCTAssertEqual(try views.syncedCopies(account: accountName, folder: path("Projects")).count, 1, "round \(round)")
            if round > 0 {
                XCTAssertEqual(report.events, 0, "nothing changed: nothing appended")
                XCTAssertTrue(inbox.unchanged)
            }
        }
    }

    func testANoChangeSyncAppendsNothing() throws {
        let c = try server()
        defer { c.logout() }
        try fillMailbox(c)
        try addAccount()
        try sync()
        let head = try store.log.head().sequence
        let again = try sync()
        XCTAssertEqual(again.events, 0)
        XCTAssertEqual(try store.log.head().sequence, head, "a sync with no change appends no event")
        XCTAssertTrue(again.folders.allSatisfy(\.unchanged))
    }

    func testChangesByAnotherClientShowAfterAnIncrementalSync() throws {
        let c = try server()
        defer { c.logout() }
        try fillMailbox(c)
        try addAccount()
        try sync()
        // Another device: read, unread, star, delete+expunge, move, new mail.
        let inbox = try serverFlags("INBOX", via: c)
        let uids = inbox.keys.sorted()
        _ = try c.select(.inbox)
        _ = try c.uidStore(UIDSet(uids[0]), .add, flags: ["\\Seen", "\\Flagged"])
        _ = try c.uidStore(UIDSet(uids[1]), .remove, flags: ["\\Seen"])
        _ = try c.uidStore(UIDSet(uids[4]), .add, flags: ["\\Deleted"])
        try c.uidExpunge(UIDSet(uids[4]))
        _ = try c.uidMove(UIDSet(uids[3]), to: MailboxName(path("Archive")))
        _ = try c.append(to: .inbox, message: SyncTestCase.message("n1", subject: "New", day: 20))
        let report = try sync()
        let inboxReport = try XCTUnwrap(report.folders.first { $0.folder == "INBOX" })
        XCTAssertEqual(inboxReport.flagsChanged, 2)
        XCTAssertEqual(inboxReport.expunged, 2, "one expunged, one moved away")
        XCTAssertEqual(inboxReport.received, 1)
        XCTAssertEqual(report.folders.first { $0.folder == path("Archive") }?.received, 1, "the moved message arrives in Archive")
        try assertViewsMatchServer()
        XCTAssertEqual(try sync().events, 0)
    }

    func testARecreatedMailboxWithANewUIDValidityGivesNoDuplicates() throws {
        let c = try server()
        defer { c.logout() }
        try fillMailbox(c)
        try addAccount()
        try sync()
        let before = try views.syncedCopies(account: accountName, folder: path("Projects"))
        let oldValidity = try XCTUnwrap(before.values.first?.uidValidity)
        try c.delete(MailboxName(path("Projects")))
        try fill("Projects", [("p1", "Kickoff", nil, ["\\Seen"]), ("p2", "Re: Kickoff", "p1", ["$Important"]),
                              ("p3", "Re: Kickoff", "p2", [])], via: c)
        let report = try sync()
        let projects = try XCTUnwrap(report.folders.first { $0.folder == path("Projects") })
        XCTAssertTrue(projects.uidValidityChanged)
        XCTAssertEqual(projects.rematched, 2)
        XCTAssertEqual(projects.received, 1)
        XCTAssertEqual(projects.expunged, 0)
        let after = try views.syncedCopies(account: accountName, folder: path("Projects"))
        XCTAssertNotEqual(after.values.first?.uidValidity, oldValidity)
        XCTAssertTrue(Set(before.values.map(\.emailID)).isSubset(of: Set(after.values.map(\.emailID))), "matched copies keep their email ids")
        XCTAssertTrue(try views.duplicates(account: accountName).isEmpty, "no duplicated message")
        XCTAssertEqual(try threads("Projects"), [["p1@example.com", "p2@example.com", "p3@example.com"]])
        try assertViewsMatchServer()
        // The two found again are at the UIDs they had, with the flags they had: `UIDValidityChanged` moves them to the new
        // value and nothing is recorded for them (they had been recorded again, 2 more events; one per message at every sync
        // on a server that changes UIDVALIDITY at every session).
        XCTAssertEqual(try receivedEvents(), 11, "10 fetched, 1 new")
    }

    func testAFolderDeletedOnTheServerIsRemoved() throws {
        let c = try server()
        defer { c.logout() }
        try fillMailbox(c)
        try addAccount()
        try sync()
        try c.delete(MailboxName(path("Projects")))
        let report = try sync()
        XCTAssertEqual(report.folderEvents, 3, "two expunges and FolderRemoved")
        XCTAssertFalse(try views.folders(account: accountName).contains { $0.path == path("Projects") })
        XCTAssertTrue(try views.syncedCopies(account: accountName, folder: path("Projects")).isEmpty)
        try assertViewsMatchServer()
    }

    func testStartTLSAccountSyncs() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [("x1", "Over STARTTLS", nil, [])], via: c)
        try addAccount(security: "starttls")
        XCTAssertEqual(try sync().received, 1)
    }

    func testOnlyTheNamedFolderIsSynced() throws {
        let c = try server()
        defer { c.logout() }
        try fillMailbox(c)
        try addAccount()
        guard let account = try views.account(named: accountName)?.settings else { return XCTFail("no account") }
        let report = try SyncEngine(store: store, account: account, options: SyncOptions(folders: [path("Projects")])).run()
        XCTAssertEqual(report.folders.map(\.folder), [path("Projects")])
        XCTAssertEqual(report.received, 2)
        XCTAssertThrowsError(try SyncEngine(store: store, account: account,
                                            options: SyncOptions(folders: ["Nope"])).run()) { error in
            XCTAssertTrue("\(error)".contains("no syncable folder \"Nope\""), "\(error)")
        }
    }

    /// Courier gives a folder that never held a message a new UIDVALIDITY in every session: nothing is
    /// recorded for it, and mail that arrives later is fetched as usual.
    func testAnEmptyFolderWhoseUIDValidityChangesRecordsNothingUntilMailArrives() throws {
        let c = try server()
        defer { c.logout() }
        try fill("Later", [], via: c)
        try addAccount()
        try sync()
        let head = try store.log.head().sequence
        for _ in 0..<2 { XCTAssertEqual(try sync().events, 0, "an unchanged empty folder records nothing") }
        XCTAssertEqual(try store.log.head().sequence, head)
        try fill("Later", [("l1", "Finally", nil, [])], via: c)
        let report = try sync()
        XCTAssertEqual(report.folders.first { $0.folder == path("Later") }?.received, 1)
        XCTAssertEqual(report.folders.first { $0.folder == path("Later") }?.expunged, 0)
        try assertViewsMatchServer()
        XCTAssertEqual(try sync().events, 0)
    }

    /// Flags another client changed on many messages are appended in chunks of at most `eventsPerCommit` events, the
    /// checkpoint with the last (all of a pass's changes had been one append: 50,001 events for 50K messages read
    /// elsewhere, a million for a million), and the views end as the server has them.
    func testManyFlagChangesAreAppendedInBoundedChunks() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", (1...23).map { (id: "m\($0)", subject: "Note \($0)", parent: String?.none, flags: [String]()) }, via: c)
        try addAccount()
        try sync()
        let uids = try serverFlags("INBOX", via: c).keys.sorted()
        _ = try c.select(.inbox)
        _ = try c.uidStore(UIDSet(uids), .add, flags: ["\\Seen"])
        guard let account = try views.account(named: accountName)?.settings else { throw SyncError.noAccount(accountName) }
        let engine = try SyncEngine(store: store, account: account)
        engine.eventsPerCommit = 10
        let report = try engine.run()
        XCTAssertEqual(report.folders.first { $0.folder == "INBOX" }?.flagsChanged, 23)
        XCTAssertEqual(engine.largestChangeCommit, 10, "23 flag changes and a checkpoint: appends of 10, 10 and 4")
        try assertViewsMatchServer()
        XCTAssertEqual(try sync().events, 0)
    }

    // The same against Courier-IMAP and Cyrus IMAP (see docs/interop.md for what each server offers).

    func testInitialSyncGivesViewsThatMatchTheServerOnCourier() throws { try testInitialSyncGivesViewsThatMatchTheServer() }
    func testInitialSyncGivesViewsThatMatchTheServerOnCyrus() throws { try testInitialSyncGivesViewsThatMatchTheServer() }
    func testANoChangeSyncAppendsNothingOnCourier() throws { try testANoChangeSyncAppendsNothing() }
    func testANoChangeSyncAppendsNothingOnCyrus() throws { try testANoChangeSyncAppendsNothing() }
    func testChangesByAnotherClientShowAfterAnIncrementalSyncOnCourier() throws { try testChangesByAnotherClientShowAfterAnIncrementalSync() }
    func testChangesByAnotherClientShowAfterAnIncrementalSyncOnCyrus() throws { try testChangesByAnotherClientShowAfterAnIncrementalSync() }
    func testARecreatedMailboxWithANewUIDValidityGivesNoDuplicatesOnCourier() throws {
        try testARecreatedMailboxWithANewUIDValidityGivesNoDuplicates()
    }
    func testARecreatedMailboxWithANewUIDValidityGivesNoDuplicatesOnCyrus() throws {
        try testARecreatedMailboxWithANewUIDValidityGivesNoDuplicates()
    }
    func testAFolderDeletedOnTheServerIsRemovedOnCourier() throws { try testAFolderDeletedOnTheServerIsRemoved() }
    func testAFolderDeletedOnTheServerIsRemovedOnCyrus() throws { try testAFolderDeletedOnTheServerIsRemoved() }
    func testStartTLSAccountSyncsOnCourier() throws { try testStartTLSAccountSyncs() }
    func testStartTLSAccountSyncsOnCyrus() throws { try testStartTLSAccountSyncs() }
    func testOnlyTheNamedFolderIsSyncedOnCourier() throws { try testOnlyTheNamedFolderIsSynced() }
    func testOnlyTheNamedFolderIsSyncedOnCyrus() throws { try testOnlyTheNamedFolderIsSynced() }
    func testAnEmptyFolderWhoseUIDValidityChangesRecordsNothingUntilMailArrivesOnCourier() throws {
        try testAnEmptyFolderWhoseUIDValidityChangesRecordsNothingUntilMailArrives()
    }
}
