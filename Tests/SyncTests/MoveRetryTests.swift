import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
@testable import MailStore
import Projections
import TestSupport
import XCTest

/// A move retried on a server without MOVE (Courier: `UID COPY`, `\Deleted`, `UID EXPUNGE`) after its first
/// write-back failed: what the server already holds is not copied again. The lost reply to `UID COPY` is set up
/// by hand (another client makes the copy, and the failed attempt is recorded as the write-back records it), since
/// the fault proxy cannot cut a connection right after a given command's reply.
final class MoveRetryTests: SyncTestCase {
    private var actions: ManageThreadActionsUseCase { ManageThreadActionsUseCase(store: store) }

    /// The thread holding the message with Message-ID `id@example.com`.
    private func thread(_ id: String) throws -> String {
        let copy = try XCTUnwrap(try views.copies(account: accountName, messageID: "\(id)@example.com").first)
        return try XCTUnwrap(try views.emailRecord(id: copy.emailID)).threadID
    }

    /// UIDs of the messages with Message-ID `id@example.com` in `folder` on the server.
    private func uids(of id: String, in folder: String, via c: IMAPConnection) throws -> [UInt32] {
        _ = try c.select(MailboxName(path(folder)), readOnly: true)
        return try c.uidSearch([.header("Message-ID", "\(id)@example.com")])
    }

    /// Another client copies the message `id` from INBOX to Archive, as a `UID COPY` whose reply was lost leaves it.
    private func copyToArchive(_ id: String, via c: IMAPConnection) throws {
        _ = try c.select(MailboxName("INBOX"))
        let uid = try XCTUnwrap(try c.uidSearch([.header("Message-ID", "\(id)@example.com")]).first)
        _ = try c.uidCopy(UIDSet(uid), to: MailboxName(path("Archive")))
    }

    /// Fills INBOX with one-message threads `ids`, makes sure Archive exists, adds the account and syncs.
    private func prepare(_ ids: [String], via c: IMAPConnection) throws {
        try fill("INBOX", ids.map { (id: $0, subject: "Retry \($0)", parent: nil, flags: [String]()) }, via: c)
        try fill("Archive", [], via: c)
        try addAccount()
        try sync()
    }

    private func engine() throws -> SyncEngine {
        try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
    }

    /// Records a failed first attempt of `action` (a lost connection), as the write-back does, then retries it
    /// (`retry`: a write-back forced for it) and checks that all `applied` copies were applied, none refused or failed.
    private func retryAfterLostConnection(_ action: EventID, applied: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let e = try engine()
        defer { e.disconnect() }
        let record = try XCTUnwrap(try views.action(id: action.description))
        var outcome = SyncEngine.ActionOutcome()
        outcome.failedReason = "connection lost: the server closed the connection"
        var first = WriteBackReport()
        try e.record(record, outcome, into: &first)
        XCTAssertEqual(first.failed, record.pending.count, file: file, line: line)
        let report = try e.writeBack(force: [action.description])
        XCTAssertEqual(report.applied, applied, "\(report)", file: file, line: line)
        XCTAssertEqual(report.failed + report.rejected, 0, "\(report)", file: file, line: line)
    }

    func testARetriedArchiveWhoseCopyWasMadeIsNotCopiedAgainOnCourier() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(["r0", "r1", "r2"], via: c)
        XCTAssertFalse(c.has("MOVE"), "the case is a server without MOVE")
        let archive = try actions.archiveThreads(ids: [try thread("r0"), try thread("r1")])
        // The first write-back copied r0 and lost the connection before the reply; r1 was not reached.
        try copyToArchive("r0", via: c)
        try retryAfterLostConnection(archive, applied: 2)
        XCTAssertEqual(try uids(of: "r0", in: "Archive", via: c).count, 1, "r0 copied once, not again")
        XCTAssertEqual(try uids(of: "r0", in: "INBOX", via: c), [], "and removed from the Inbox")
        XCTAssertEqual(try uids(of: "r1", in: "Archive", via: c).count, 1, "r1 moved as usual")
        XCTAssertEqual(try uids(of: "r1", in: "INBOX", via: c), [])
        XCTAssertEqual(try uids(of: "r2", in: "INBOX", via: c).count, 1, "the rest untouched")
        _ = try c.select(MailboxName(path("Archive")), readOnly: true)
        XCTAssertEqual(try c.uidSearch([.deleted]), [], "nothing in Archive marked \\Deleted")

        try sync()
        XCTAssertTrue(try views.duplicates(account: accountName).isEmpty, "no duplicated message")
        XCTAssertEqual(try store.failedActions(account: accountName).count, 0)
        try assertViewsMatchServer()
    }

    /// A retry whose first attempt never reached the COPY (cut before it, or after the `\Deleted` check) finds nothing
    /// in the destination and moves as usual, from the source selected read-write again after the destination's EXAMINE.
    func testARetriedArchiveWhoseCopyWasNeverMadeMovesAsUsualOnCourier() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(["n0"], via: c)
        let archive = try actions.archiveThreads(ids: [try thread("n0")])
        // The first attempt was cut after its \Deleted check: the source is left marked.
        _ = try c.select(MailboxName("INBOX"))
        _ = try c.uidStore(UIDSet(try XCTUnwrap(try c.uidSearch([.header("Message-ID", "n0@example.com")]).first)), .add, flags: ["\\Deleted"])
        try retryAfterLostConnection(archive, applied: 1)
        XCTAssertEqual(try uids(of: "n0", in: "INBOX", via: c), [])
        let moved = try uids(of: "n0", in: "Archive", via: c)
        XCTAssertEqual(moved.count, 1)
        XCTAssertEqual(try c.uidSearch([.deleted]), [], "the copy in Archive is not marked \\Deleted")
        try sync()
        try assertViewsMatchServer()
    }

    /// On a first attempt a message with the same Message-ID already in the destination is not taken for the copy:
    /// only a retry looks (the lookup is for what an earlier attempt may have done).
    func testAFirstArchiveCopiesEvenWhenTheDestinationHoldsTheSameMessageOnCourier() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(["s0"], via: c)
        try copyToArchive("s0", via: c)
        try sync()
        let inboxCopy = try XCTUnwrap(try views.syncedCopies(account: accountName, folder: "INBOX").values.first)
        let archive = try actions.archiveThreads(ids: [try XCTUnwrap(try views.emailRecord(id: inboxCopy.emailID)).threadID])
        let report = try XCTUnwrap(try store.pushActions(for: archive.description))
        XCTAssertEqual(report.applied, 1, "\(report)")
        XCTAssertEqual(try uids(of: "s0", in: "INBOX", via: c), [])
        XCTAssertEqual(try uids(of: "s0", in: "Archive", via: c).count, 2, "copied: the one there was not this move's")
    }
}
