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
        XCTAssertGreaterThan(try XCTUnwrap(failure.retryAt), Timestamp(Date().addingTimeInterval(20)))
        XCTAssertTrue(failure.reason.contains("deadline of 1 seconds"), "whole seconds: \(failure.reason)")
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
        XCTAssertTrue(failedLines.first?.contains("deadline") ?? false, r.stdout)
        XCTAssertTrue(r.stdout.contains("outbox send: 0 sent, 1 failed, 0 still queued"), r.stdout)
        XCTAssertTrue(r.stderr.contains("1 message not sent"), r.stderr)
        XCTAssertTrue(r.stderr.contains("2 other due messages left for the next round"), r.stderr)
    }
}
