import EventLog
import EventModel
import Foundation
import MailStore
import TestSupport
import Views
import XCTest

/// An SMTP server that takes the connection and then never says anything (a socket listening and never accepting: the
/// kernel completes the TCP handshake), with an attempt deadline of 1 s (`MAILSTORE_SEND_ATTEMPT_SECONDS`): each
/// attempt is recorded with its backoff, and a round stops at the first message the server did not serve.
final class OutboxStallTests: SyncTestCase {
    private var listener: (fd: Int32, port: UInt16)!
    private var ids: [String] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        listener = try XCTUnwrap(LoopbackSocket.listen(backlog: 16))
        try store.addAccount(AccountSettings(name: accountName, email: user, host: imap.host, port: imap.tlsPort, security: "tls",
                                             credential: .file(passwordFile), caFile: imap.caFile, smtpHost: "127.0.0.1",
                                             smtpPort: listener.port, smtpSecurity: "starttls", smtpCredential: .file(passwordFile)))
        let drafts = DraftsUseCase(store: store)
        ids = try (0..<3).map { i in
            let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Stalled \(i)", body: "Hello"))
            _ = try OutboxUseCase(store: store).queue(d.draftID, undoDelay: 0)
            return d.draftID
        }
        setenv("MAILSTORE_SEND_ATTEMPT_SECONDS", "1", 1)
    }

    override func tearDown() {
        unsetenv("MAILSTORE_SEND_ATTEMPT_SECONDS")
        if let listener { close(listener.fd) }
        super.tearDown()
    }

    private func events(_ draftID: String) throws -> [DomainEvent] {
        var out: [DomainEvent] = []
        try store.log.scan(filter: ScanFilter(stream: .draft(draftID))) { ev in
            out.append(try ev.decode())
            return true
        }
        return out
    }

    func testAStallAfterTheConnectionIsAFailedAttemptWithBackoffAndEndsTheAccountsRound() throws {
        var told: [(String, OutboxItem.State)] = []
        var stop: (String, Int)?
        let start = Date()
        _ = try OutboxUseCase(store: store).deliverDue(account: accountName, done: { told.append(($0, $1)) }, stopped: { stop = ($0, $1) })
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "one attempt of about 1 s, not one per message")
        XCTAssertEqual(told.map(\.1), [.failed], "only the first message is tried")
        let first = try XCTUnwrap(told.first?.0)
        XCTAssertEqual(stop?.0, first)
        XCTAssertEqual(stop?.1, 2, "the two others are left for the next round")
        _ = try store.latestViews()
        // Recorded as an attempt, retried with the backoff: not "no network", due again 30 s later without an attempt.
        let recorded = try events(first)
        XCTAssertEqual(recorded.map(\.type), [.draftSaved, .messageQueued, .sendStarted, .sendFailed])
        guard case .sendFailed(let failure)? = recorded.last else { return XCTFail("\(recorded)") }
        XCTAssertFalse(failure.permanent)
        XCTAssertTrue(failure.serverFailure, "the server did not serve it: the account waits for it")
        XCTAssertGreaterThan(try XCTUnwrap(failure.retryAt), Timestamp(Date().addingTimeInterval(20)))
        // A STARTTLS server silent before its greeting: said so, with the hint of an implicit-TLS port (whole seconds).
        XCTAssertTrue(failure.reason.contains("no greeting within 1 seconds"), "whole seconds: \(failure.reason)")
        for other in ids where other != first {
            XCTAssertEqual(try views.outboxItem(draftID: other)?.state, .queued)
            XCTAssertEqual(try events(other).map(\.type), [.draftSaved, .messageQueued], "not tried")
        }
    }

    /// The account's settings keeping the first message from going (its password file gone) are recorded as that
    /// message's failure, told as `failed` (not "skipped", with `outbox send` exiting 0), and end the round: the other
    /// messages had each got the same permanent failure.
    func testAnAccountsSettingsKeepingAMessageFromGoingAreItsFailureAndEndTheRound() throws {
        try FileManager.default.removeItem(atPath: passwordFile)
        var told: [(String, OutboxItem.State)] = []
        var skipped: [String] = []
        var stop: (String, Int)?
        _ = try OutboxUseCase(store: store).deliverDue(account: accountName, skipped: { id, _ in skipped.append(id) },
                                                       done: { told.append(($0, $1)) }, stopped: { stop = ($0, $1) })
        XCTAssertEqual(skipped, [])
        XCTAssertEqual(told.map(\.1), [.failed])
        let first = try XCTUnwrap(told.first?.0)
        XCTAssertEqual(stop?.0, first)
        XCTAssertEqual(stop?.1, 2)
        _ = try store.latestViews()
        XCTAssertEqual(try views.outboxItem(draftID: first)?.state, .failed)
        for other in ids where other != first {
            XCTAssertEqual(try events(other).map(\.type), [.draftSaved, .messageQueued], "not tried")
        }
    }

    func testOutboxSendSaysEachMessageAsItIsDoneWithItsReasonAndExits5() throws {
        views = nil
        store = nil
        let r = try mailstore(["outbox", "send", "--account", accountName], env: ["MAILSTORE_SEND_ATTEMPT_SECONDS": "1"],
                              expect: 5)
        let failedLines = r.stdout.split(separator: "\n").filter { $0.contains("  failed: ") }
        XCTAssertEqual(failedLines.count, 1, r.stdout)
        XCTAssertTrue(failedLines.first?.contains("no greeting within") ?? false, r.stdout)
        XCTAssertTrue(r.stdout.contains("outbox send: 0 sent, 1 failed, 0 still queued"), r.stdout)
        XCTAssertTrue(r.stderr.contains("1 message not sent"), r.stderr)
        XCTAssertTrue(r.stderr.contains("2 other due messages left for the next round"), r.stderr)
    }

    /// After a message the server did not serve, the account waits for its server: later rounds try none of its messages
    /// until that message's retry time (each had tried the next message, one attempt's wait a round, until every message
    /// had a backoff of its own) and tell the due ones as waiting, with the pause; once the retry time has come, that
    /// message goes first, and the wait grows with its backoff.
    func testLaterRoundsTryNothingWhileTheAccountWaitsForItsServer() throws {
        let outbox = OutboxUseCase(store: store)
        var told: [(String, OutboxItem.State)] = []
        _ = try outbox.deliverDue(account: accountName, done: { told.append(($0, $1)) })
        XCTAssertEqual(told.map(\.1), [.failed])
        let first = try XCTUnwrap(told.first?.0)
        let others = ids.filter { $0 != first }
        for round in 2...3 {
            told = []
            var waiting: (pause: OutboxPause, ids: [String])?
            _ = try outbox.deliverDue(account: accountName, done: { told.append(($0, $1)) }, paused: { waiting = ($0, $1) })
            XCTAssertTrue(told.isEmpty, "round \(round) tried \(told)")
            let w = try XCTUnwrap(waiting, "round \(round)")
            XCTAssertEqual(w.pause.draftID, first)
            XCTAssertEqual(Set(w.ids), Set(others))
            XCTAssertGreaterThan(w.pause.until, Timestamp(Date().addingTimeInterval(20)))
            XCTAssertTrue(w.pause.reason.contains("no greeting within"), w.pause.reason)
        }
        for other in others { XCTAssertEqual(try events(other).map(\.type), [.draftSaved, .messageQueued], "not tried") }
        _ = try store.latestViews()
        XCTAssertEqual(try store.outboxPause(account: accountName)?.draftID, first)
        // Its retry time come (a second attempt's failure recorded with a retry time past): it goes first, alone, and
        // its third attempt's backoff (2 minutes) is the account's wait.
        try store.commit([NewEvent(event: .sendStarted(SendStarted(draftID: first, attempt: 2)), account: accountName,
                                   stream: .draft(first), actor: .system),
                          NewEvent(event: .sendFailed(SendFailed(draftID: first, reason: "stalled", permanent: false,
                                                                 retryAt: Timestamp(Date().addingTimeInterval(-1)), serverFailure: true)),
                                   account: accountName, stream: .draft(first), actor: .sync)])
        told = []
        _ = try outbox.deliverDue(account: accountName, done: { told.append(($0, $1)) })
        XCTAssertEqual(told.map(\.0), [first])
        XCTAssertEqual(told.map(\.1), [.failed])
        _ = try store.latestViews()
        let pause = try XCTUnwrap(try store.outboxPause(account: accountName))
        XCTAssertEqual(pause.draftID, first)
        XCTAssertGreaterThan(pause.until, Timestamp(Date().addingTimeInterval(100)))
        for other in others { XCTAssertEqual(try events(other).map(\.type), [.draftSaved, .messageQueued], "not tried") }
    }

    /// `outbox send` of an account waiting for its server says each due message waits and until when, tries none, and
    /// exits 5 (they were not sent); `outbox` says it too; a message the user retries still goes.
    func testOutboxSendSaysTheDueMessagesWaitForTheServerAndARetryStillGoes() throws {
        views = nil
        store = nil
        let env = ["MAILSTORE_SEND_ATTEMPT_SECONDS": "1"]
        let round1 = try mailstore(["outbox", "send", "--account", accountName], env: env, expect: 5)
        let failed = try XCTUnwrap(round1.stdout.split(separator: "\n").first { $0.contains("  failed: ") }, round1.stdout)
        let first = String(failed.prefix { $0 != " " })
        let others = ids.filter { $0 != first }
        XCTAssertEqual(others.count, 2)
        let r = try mailstore(["outbox", "send", "--account", accountName], env: env, expect: 5)
        let waiting = r.stdout.split(separator: "\n")
            .filter { $0.contains("  waiting: the server did not serve the account's last attempt; tried again from ") }
        XCTAssertEqual(Set(waiting.map { String($0.prefix { $0 != " " }) }), Set(others), r.stdout)
        XCTAssertFalse(r.stdout.contains("  failed: "), r.stdout)
        XCTAssertTrue(r.stdout.contains("outbox send: 0 sent, 0 failed, 0 still queued, 2 waiting for the server"), r.stdout)
        XCTAssertTrue(r.stderr.contains("the server did not serve \(first) at "), r.stderr)
        XCTAssertTrue(r.stderr.contains("2 due messages wait until "), r.stderr)
        XCTAssertTrue(r.stderr.contains("2 messages not sent"), r.stderr)
        let list = try mailstore(["outbox", "--account", accountName], env: env)
        XCTAssertTrue(list.stdout.contains("waiting for the server until "), list.stdout)
        // The user's retry goes (the server stalls it too: an attempt recorded, failed, exit 5).
        let retry = try mailstore(["outbox", "retry", others[0]], env: env, expect: 5)
        XCTAssertTrue(retry.stdout.contains("\(others[0])  failed"), retry.stdout)
    }
}
