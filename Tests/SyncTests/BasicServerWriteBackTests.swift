import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
@testable import MailStore
import Projections
import TestSupport
import XCTest

/// Write-back on a server with neither MOVE nor UIDPLUS (the Dovecot test server's `basic` layout: its CAPABILITY is
/// IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ NAMESPACE CHILDREN). A move is COPY, `\Deleted` and a
/// plain EXPUNGE, sent only when no other message of the source is marked `\Deleted`; else it waits for a retry
/// (a failed action, with its reason), and neither the rest of the write-back nor the sync stop. Until 2026-12-07
/// such a move refused to start ("NOT SENT") and ended every later sync of the account with exit 5.
final class BasicServerWriteBackTests: SyncTestCase {
    private var actions: ManageThreadActionsUseCase { ManageThreadActionsUseCase(store: store) }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let u = try imap.newUser("basic", layout: "basic")
        user = u.user
        passwordFile = u.passwordFile
    }

    /// The thread holding the message with Message-ID `id@example.com`.
    private func thread(_ id: String) throws -> String {
        let copy = try XCTUnwrap(try views.copies(account: accountName, messageID: "\(id)@example.com").first)
        return try XCTUnwrap(try views.emailRecord(id: copy.emailID)).threadID
    }

    /// UIDs of the messages with Message-ID `id@example.com` in `folder` on the server.
    private func uids(of id: String, in folder: String, via c: IMAPConnection) throws -> [UInt32] {
        _ = try c.select(MailboxName(folder), readOnly: true)
        return try c.uidSearch([.header("Message-ID", "\(id)@example.com")])
    }

    /// Fills INBOX with one-message threads `ids` (those in `deleted` marked `\Deleted` by another client) and syncs.
    private func prepare(_ ids: [String], deleted: Set<String> = [], via c: IMAPConnection) throws {
        XCTAssertFalse(c.has("MOVE"), "the case is a server without MOVE")
        XCTAssertFalse(c.has("UIDPLUS"), "and without UIDPLUS")
        try fill("INBOX", ids.map { (id: $0, subject: "Basic \($0)", parent: nil, flags: deleted.contains($0) ? ["\\Deleted"] : []) }, via: c)
        try addAccount()
        try sync()
    }

    func testArchiveAndDeleteWithoutMoveOrUIDPLUSAreDoneAndLaterSyncsGoOn() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(["b0", "b1", "b2", "b3"], via: c)
        try actions.archiveThreads(ids: [try thread("b0")])
        try actions.deleteThreads(ids: [try thread("b1")])
        try actions.markThreadsRead(ids: [try thread("b2")])
        let report = try sync()
        XCTAssertEqual(report.actions.applied, 3, "\(report.actions)")
        XCTAssertEqual(report.actions.failed + report.actions.rejected, 0, "\(report.actions)")
        XCTAssertEqual(try uids(of: "b0", in: "Archive", via: c).count, 1, "archived: copied to Archive")
        XCTAssertEqual(try uids(of: "b0", in: "INBOX", via: c), [], "and expunged from the Inbox")
        XCTAssertEqual(try uids(of: "b1", in: "Trash", via: c).count, 1, "deleted: copied to Trash")
        XCTAssertEqual(try uids(of: "b1", in: "INBOX", via: c), [])
        XCTAssertEqual(try serverFlags("INBOX", via: c).values.filter { $0.contains("\\Seen") }.count, 1, "b2 read on the server")
        XCTAssertEqual(try uids(of: "b3", in: "INBOX", via: c).count, 1, "the rest untouched")
        // New mail still comes in.
        try fill("INBOX", [(id: "b4", subject: "Basic b4", parent: nil, flags: [])], via: c)
        try sync()
        XCTAssertFalse(try views.copies(account: accountName, messageID: "b4@example.com").isEmpty, "new Inbox mail fetched")
        try mailstore(["sync", "--quiet"])
        XCTAssertEqual(try store.failedActions(account: accountName).count, 0)
    }

    func testAMoveWhileAnotherMessageIsMarkedDeletedExpungesNothingAndIsRetriedLater() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(["d0", "d1", "d2"], deleted: ["d1"], via: c)
        let archive = try actions.archiveThreads(ids: [try thread("d0")])
        let read = try actions.markThreadsRead(ids: [try thread("d2")])
        let report = try sync()
        XCTAssertEqual(report.actions.failed, 1, "the archive waits for a retry: \(report.actions)")
        XCTAssertEqual(report.actions.applied, 1, "the read after it is written back all the same: \(report.actions)")
        XCTAssertEqual(report.actions.problems.map(\.action), [archive.description])
        XCTAssertTrue(report.actions.problems.first?.reason.contains("not expunged") ?? false, "\(report.actions.problems)")
        XCTAssertEqual(try uids(of: "d1", in: "INBOX", via: c).count, 1, "another's message marked \\Deleted is not expunged")
        XCTAssertEqual(try uids(of: "d0", in: "Archive", via: c).count, 1, "copied")
        try views.catchUp()
        XCTAssertEqual(try views.action(id: read.description)?.pending, [])
        let failed = try store.failedActions(account: accountName)
        XCTAssertEqual(failed.map(\.id), [archive], "listed by `actions --failed`")
        XCTAssertTrue(failed.first?.lastError?.contains("not expunged") ?? false, "\(failed)")
        // A sync (the CLI's) goes on meanwhile: exit 0, new mail fetched.
        try fill("INBOX", [(id: "d3", subject: "Basic d3", parent: nil, flags: [])], via: c)
        try mailstore(["sync", "--quiet"])
        try views.catchUp()
        XCTAssertFalse(try views.copies(account: accountName, messageID: "d3@example.com").isEmpty, "new Inbox mail fetched")

        // The other message's mark taken away (by its client): the retry expunges d0 only, without copying it again.
        _ = try c.select(MailboxName("INBOX"))
        _ = try c.uidStore(UIDSet(try c.uidSearch([.deleted])), .remove, flags: ["\\Deleted"])
        let e = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        defer { e.disconnect() }
        let retry = try e.writeBack(force: [archive.description])
        XCTAssertEqual(retry.applied, 1, "\(retry)")
        XCTAssertEqual(retry.failed + retry.rejected, 0, "\(retry)")
        XCTAssertEqual(try uids(of: "d0", in: "Archive", via: c).count, 1, "copied once, not again")
        XCTAssertEqual(try uids(of: "d0", in: "INBOX", via: c), [], "expunged from the Inbox")
        XCTAssertEqual(try uids(of: "d1", in: "INBOX", via: c).count, 1, "the other message kept")
        XCTAssertEqual(try store.failedActions(account: accountName).count, 0)
    }

    /// Another client marks a message `\Deleted` and keeps it so: the move waits for its retries up to the bound
    /// (``SyncEngine/maxUnexpungedAttempts``, failures counted), copying once, then is given up: its mark taken away, the
    /// copy refused and reverted in the views (which match the server again), `actions --failed` saying why with no retry
    /// time, and no write-back after it sends it again; syncs bring new mail all along. (It had been retried without end.)
    func testAMoveBlockedByAnotherClientsMarkIsGivenUpAtTheBoundAndRevertedInTheViews() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(["g0", "g1", "g2"], deleted: ["g1"], via: c)
        let archive = try actions.archiveThreads(ids: [try thread("g0")])
        let first = try sync()
        XCTAssertEqual(first.actions.failed, 1, "attempt 1 waits: \(first.actions)")
        let e = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        defer { e.disconnect() }
        let bound = SyncEngine.maxUnexpungedAttempts
        for attempt in 2..<bound {
            let retry = try e.writeBack(force: [archive.description])
            XCTAssertEqual(retry.failed, 1, "attempt \(attempt) still waits: \(retry)")
            XCTAssertEqual(retry.rejected, 0, "attempt \(attempt): \(retry)")
            if attempt == bound / 2 {
                // Syncs go on meanwhile and bring new mail.
                try fill("INBOX", [(id: "g3", subject: "Basic g3", parent: nil, flags: [])], via: c)
                try mailstore(["sync", "--quiet"])
                try views.catchUp()
                XCTAssertFalse(try views.copies(account: accountName, messageID: "g3@example.com").isEmpty, "new mail fetched")
            }
        }
        try views.catchUp()
        XCTAssertEqual(try views.action(id: archive.description)?.attempts, bound - 1)
        XCTAssertEqual(try views.action(id: archive.description)?.state, "failed")
        let email = try XCTUnwrap(try views.action(id: archive.description)?.targets.first?.emailID)
        XCTAssertEqual(try viewFolder(email), "Archive", "archived in the views while it waits")

        let last = try e.writeBack(force: [archive.description])
        XCTAssertEqual(last.rejected, 1, "attempt \(bound) gives up: \(last)")
        XCTAssertEqual(last.failed, 0, "\(last)")
        XCTAssertEqual(last.problems.map(\.retrying), [false], "\(last.problems)")
        // The server: the message stays in the Inbox without the mark, its one copy in the Archive, the other's mark kept.
        XCTAssertEqual(try uids(of: "g0", in: "Archive", via: c).count, 1, "copied once in all the attempts")
        let inbox = try serverFlags("INBOX", via: c)
        let g0 = try XCTUnwrap(try uids(of: "g0", in: "INBOX", via: c).first, "g0 stays in the Inbox")
        let g1 = try XCTUnwrap(try uids(of: "g1", in: "INBOX", via: c).first, "the other client's message is not expunged")
        XCTAssertFalse(inbox[g0]?.contains("\\Deleted") ?? true, "the move's mark taken away: \(inbox)")
        XCTAssertTrue(inbox[g1]?.contains("\\Deleted") ?? false, "the other client's mark kept: \(inbox)")

        try views.catchUp()
        let failed = try store.failedActions(account: accountName)
        XCTAssertEqual(failed.map(\.id), [archive])
        XCTAssertEqual(failed.first?.state, "rejected")
        XCTAssertTrue(failed.first?.lastError?.contains("given up after \(bound) attempts") ?? false, "\(failed)")
        XCTAssertEqual(try viewFolder(email), "INBOX", "reverted in the views: back in the Inbox")
        let listed = try mailstore(["actions", "--failed"]).stdout
        XCTAssertTrue(listed.contains("rejected") && listed.contains("given up after"), listed)
        XCTAssertFalse(listed.contains("retry"), "nothing left to retry, no retry time: \(listed)")
        let json = try mailstore(["actions", "--failed", "--json"]).stdout
        XCTAssertTrue(json.contains("\"state\":\"rejected\"") && json.contains("given up after"), json)

        // Later syncs send nothing again and keep bringing new mail; the views match the server.
        try fill("INBOX", [(id: "g4", subject: "Basic g4", parent: nil, flags: [])], via: c)
        let after = try sync()
        XCTAssertEqual(after.actions.applied + after.actions.failed + after.actions.rejected + after.actions.waiting, 0, "\(after.actions)")
        XCTAssertFalse(try views.copies(account: accountName, messageID: "g4@example.com").isEmpty, "new mail fetched")
        try assertViewsMatchServer()
    }

    /// `mailstore retry` of a move given up at its bound (its copy left in the destination) finds that copy there by
    /// Message-ID and size and only expunges the message from the source, once the other client's mark is gone: one copy
    /// in the destination, not two. (Its first attempt did not look, and copied the message a second time.)
    func testARetryOfAMoveGivenUpAtTheBoundDoesNotCopyItAgain() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(["r0", "r1"], deleted: ["r1"], via: c)
        let archive = try actions.archiveThreads(ids: [try thread("r0")])
        let e = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        defer { e.disconnect() }
        var rejected = 0
        for _ in 0..<SyncEngine.maxUnexpungedAttempts where rejected == 0 {
            rejected = try e.writeBack(force: [archive.description]).rejected
        }
        XCTAssertEqual(rejected, 1, "given up at the bound")
        XCTAssertEqual(try uids(of: "r0", in: "Archive", via: c).count, 1, "its copy stays in the Archive")
        try sync()  // which brings that copy in
        // Still marked by the other client: the retry finds the copy and waits, copying nothing.
        let waiting = try mailstore(["retry", archive.description], expect: 0)
        let retried = try XCTUnwrap(waiting.stdout.split(separator: "\n").first.map(String.init), waiting.stdout)
        XCTAssertEqual(try uids(of: "r0", in: "Archive", via: c).count, 1, "not copied again while it waits")
        try views.catchUp()
        XCTAssertEqual(try views.action(id: retried)?.state, "failed", "it waits for the other client's mark")
        // The mark taken away (by its client): the retry expunges r0 from the Inbox, its one copy in the Archive.
        _ = try c.select(MailboxName("INBOX"))
        _ = try c.uidStore(UIDSet(try c.uidSearch([.deleted])), .remove, flags: ["\\Deleted"])
        let done = try e.writeBack(force: [retried])
        XCTAssertEqual(done.applied, 1, "\(done)")
        XCTAssertEqual(try uids(of: "r0", in: "Archive", via: c).count, 1, "one copy in the Archive, not two")
        XCTAssertEqual(try uids(of: "r0", in: "INBOX", via: c), [], "expunged from the Inbox")
        XCTAssertEqual(try uids(of: "r1", in: "INBOX", via: c).count, 1, "the other message kept")
        try sync()
        try assertViewsMatchServer()
    }

    /// Attempts that fail because the connection dropped (Tools/test-server/tcp-freeze-proxy closes it) do not bring the
    /// give-up closer: only those that find the move's copy unexpunged count (``SyncEngine/unexpungedAttempts(_:)``), each
    /// saying which it is. (Every failed attempt had counted: two drops gave the move up two attempts early.)
    func testAttemptsFailingOnADroppedConnectionDoNotCountTowardsTheGiveUp() throws {
        let c = try server()
        defer { c.logout() }
        XCTAssertFalse(c.has("MOVE") || c.has("UIDPLUS"), "the case is a server without MOVE and UIDPLUS")
        try fill("INBOX", [(id: "t0", subject: "Basic t0", parent: nil, flags: []), (id: "t1", subject: "Basic t1", parent: nil, flags: ["\\Deleted"])],
                 via: c)
        let started = try startPythonProxy("tcp-freeze-proxy", ["--target-host", imap.host, "--target-port", "\(imap.tlsPort)",
                                                                 "--frozen-file", dir.file("proxy.frozen")], what: "freeze proxy")
        defer { stopPythonProxy(started.process) }
        try store.addAccount(AccountSettings(name: accountName, email: user, host: imap.host, port: UInt16(started.port), security: "tls",
                                             credential: .file(passwordFile), caFile: imap.caFile))
        try sync()
        let archive = try actions.archiveThreads(ids: [try thread("t0")])
        let e = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        defer { e.disconnect() }
        let bound = SyncEngine.maxUnexpungedAttempts
        for attempt in 1...(bound - 2) {
            let r = try e.writeBack(force: [archive.description])
            XCTAssertEqual(r.failed, 1, "blocked attempt \(attempt) waits: \(r)")
            XCTAssertTrue(r.problems.first?.reason.hasPrefix("\(SyncEngine.unexpungedLead) (attempt \(attempt) of \(bound)") ?? false,
                          "\(r.problems)")
        }
        // Two attempts on a connection the proxy drops: failures of the connection, not of the other client's mark.
        for _ in 0..<2 {
            _ = try e.connect()
            kill(started.process.processIdentifier, SIGUSR2)
            Thread.sleep(forTimeInterval: 1)
            let r = try e.writeBack(force: [archive.description])
            XCTAssertEqual(r.failed, 1, "\(r)")
            XCTAssertEqual(r.rejected, 0, "\(r)")
            XCTAssertFalse(r.problems.first?.reason.hasPrefix(SyncEngine.unexpungedLead) ?? true, "a lost connection: \(r.problems)")
        }
        try views.catchUp()
        XCTAssertEqual(try views.action(id: archive.description)?.attempts, bound, "every failure recorded")
        // Attempt 11 in all, the 9th blocked one: it waits, not given up.
        let ninth = try e.writeBack(force: [archive.description])
        XCTAssertEqual(ninth.rejected, 0, "not given up while 9 attempts were blocked: \(ninth)")
        XCTAssertEqual(ninth.failed, 1, "\(ninth)")
        XCTAssertTrue(ninth.problems.first?.reason.hasPrefix("\(SyncEngine.unexpungedLead) (attempt \(bound - 1) of \(bound)") ?? false,
                      "\(ninth.problems)")
        // The 10th blocked attempt gives up: the mark taken away, one copy in the Archive.
        let tenth = try e.writeBack(force: [archive.description])
        XCTAssertEqual(tenth.rejected, 1, "given up at the 10th blocked attempt: \(tenth)")
        XCTAssertEqual(try uids(of: "t0", in: "Archive", via: c).count, 1, "copied once")
        let inbox = try serverFlags("INBOX", via: c)
        let t0 = try XCTUnwrap(try uids(of: "t0", in: "INBOX", via: c).first, "t0 stays in the Inbox")
        XCTAssertFalse(inbox[t0]?.contains("\\Deleted") ?? true, "the move's mark taken away: \(inbox)")
    }

    /// The folder the views show the email `id` in (its actions folded in).
    private func viewFolder(_ id: String) throws -> String? {
        try views.emailCopyStates(ids: [id]).first??.folder
    }
}
