import EventLog
import EventModel
import Foundation
import MailParser
import MailStore
import Projections
import TestSupport
import XCTest

/// The outbox's answers when things happen at once or go wrong before a message is offered: an undo and a send at
/// the due time (exactly one wins), a delete of a draft in the outbox, SMTP refusals at the greeting, at AUTH and a
/// send lock held by another process (each recorded on the message as `SendFailed`), and one message's or account's
/// trouble not stopping `outbox send` of the others.
final class OutboxRaceTests: SyncTestCase {
    var smtp: SMTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        smtp = try TestServers.smtp(SMTPPersonality(testName: name))
        try addAccount(smtp: smtp)
        try sync()
    }

    private var drafts: DraftsUseCase { DraftsUseCase(store: store) }
    private var outbox: OutboxUseCase { OutboxUseCase(store: store) }

    private func spooled(_ messageID: String) throws -> Bool {
        try smtp.spoolEntries().contains { e in
            MailParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: smtp.spoolDir + "/" + e.file)))).messageID == messageID
        }
    }

    private func types(_ draftID: String) throws -> [EventType] {
        var out: [EventType] = []
        try store.log.scan(filter: ScanFilter(stream: .draft(draftID))) { ev in
            out.append(ev.envelope.type)
            return true
        }
        return out
    }

    private func lastFailure(_ draftID: String) throws -> SendFailed? {
        var last: SendFailed?
        try store.log.scan(filter: ScanFilter(types: [.sendFailed], stream: .draft(draftID))) { ev in
            if case .sendFailed(let p) = try ev.decode() { last = p }
            return true
        }
        return last
    }

    private func draft(_ subject: String, account: String? = nil, to: String = "bob@example.com") throws -> String {
        try drafts.create(account: account ?? accountName, DraftInput(to: to, subject: subject, body: "Hello")).draft.draftID
    }

    /// A failed attempt whose retry time has come (what `outbox send` and a watch deliver), `account` its account.
    private func failedAndDue(_ draftID: String, account: String) throws {
        _ = try outbox.queue(draftID, undoDelay: 0)
        try store.commit([
            NewEvent(event: .sendStarted(SendStarted(draftID: draftID, attempt: 1)), account: account, stream: .draft(draftID), actor: .system),
            NewEvent(event: .sendFailed(SendFailed(draftID: draftID, reason: "421 earlier", permanent: false,
                                                   retryAt: Timestamp(Date().addingTimeInterval(-1)))),
                     account: account, stream: .draft(draftID), actor: .sync),
        ])
    }

    /// A second account (its own IMAP user) whose SMTP server is `port` on loopback.
    private func addAccount(_ name: String, smtpPort: UInt16, password: String? = nil) throws {
        let other = try imap.newUser(name)
        var credential: String = smtp.passwordFile
        if let password {
            credential = dir.file("\(name)-smtp-password")
            try password.write(toFile: credential, atomically: true, encoding: .utf8)
            chmod(credential, 0o600)
        }
        try store.addAccount(AccountSettings(name: name, email: other.user, host: imap.host, port: imap.tlsPort, security: "tls",
                                             credential: .file(other.passwordFile), caFile: dir.file("ca-bundle.pem"), smtpHost: "127.0.0.1",
                                             smtpPort: smtpPort, smtpSecurity: "starttls", smtpUsername: smtp.user,
                                             smtpCredential: .file(credential)))
    }

    // MARK: - Undo against send (bug: "Undone" printed while the message went out)

    /// An undo that read the draft's stream before the due time and appends after the sender read it: the sender's
    /// `SendStarted` expects the stream as it read it, so the undo wins and nothing is sent.
    func testAnUndoLandingAfterTheSendersReadWinsAndNothingIsSent() throws {
        let id = try draft("Race lost by the send")
        let queued = try outbox.queue(id, undoDelay: 0)
        let read = try store.expectedVersion(of: .draft(id))
        var sender = outbox
        sender.beforeCommitting = { [store, accountName] in
            try store!.commit([NewEvent(event: .sendUndone(SendUndone(draftID: id)), account: accountName, stream: .draft(id), actor: .user,
                                        expectedVersion: read)])
        }
        XCTAssertEqual(try sender.deliver(id), .draft)
        XCTAssertFalse(try spooled(queued.messageID), "an undone message must not reach SMTP")
        XCTAssertEqual(try types(id), [.draftSaved, .messageQueued, .sendUndone])
        XCTAssertEqual(try views.outboxItem(draftID: id)?.state, .draft)
        XCTAssertNotNil(try views.draft(id: id), "the draft is back")
    }

    /// The send reaches the due time between an undo's read (before it) and its append: the undo expects the stream
    /// as it read it, so it is refused as too late, and the message is sent once, with no `SendUndone` after it.
    func testAnUndoBeatenByTheSendIsTooLateNotUndone() throws {
        let id = try draft("Race won by the send")
        let queued = try outbox.queue(id, undoDelay: 0.5)
        var undoer = outbox
        var sentMeanwhile: OutboxItem.State?
        undoer.beforeCommitting = { [outbox] in
            guard sentMeanwhile == nil else { return }
            while Timestamp.now < queued.dueAt { usleep(10_000) }
            sentMeanwhile = try outbox.deliver(id)
        }
        XCTAssertThrowsError(try undoer.undo(id)) { error in
            XCTAssertEqual(error as? DraftError, .tooLateToUndo(id), "\(error)")
        }
        XCTAssertEqual(sentMeanwhile, .sent)
        XCTAssertTrue(try spooled(queued.messageID))
        let recorded = try types(id)
        XCTAssertFalse(recorded.contains(.sendUndone), "no undo recorded after the send: \(recorded)")
    }

    /// After the undo window every undo gets the one documented answer, too late (exit 7), whatever the message is
    /// doing: queued past its due time, failed, or sent with its draft deleted (it had been "not in the outbox" or
    /// "no draft", exit 4).
    func testAnUndoAfterTheWindowIsAlwaysTooLate() throws {
        let sent = try draft("Sent")
        _ = try outbox.queue(sent, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(sent), .sent)
        let failed = try draft("Failed", to: "fail5xx@example.com")
        _ = try outbox.queue(failed, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(failed), .failed)
        let due = try draft("Due")
        _ = try outbox.queue(due, undoDelay: 0)
        for id in [sent, failed, due] {
            XCTAssertThrowsError(try outbox.undo(id)) { XCTAssertEqual($0 as? DraftError, .tooLateToUndo(id), "\($0)") }
        }
        let r = try mailstore(["send", "--undo", sent], expect: 7)
        XCTAssertTrue(r.stderr.contains("too late to undo"), r.stderr)
        let never = try draft("Never queued")
        XCTAssertThrowsError(try outbox.undo(never)) { XCTAssertEqual($0 as? DraftError, .notQueued(never), "\($0)") }
        XCTAssertThrowsError(try outbox.undo("nosuchdraft")) { XCTAssertEqual($0 as? DraftError, .notFound("nosuchdraft"), "\($0)") }
    }

    // MARK: - Refusals before the message is offered (bug: nothing recorded, the draft "back" 15 s later)

    /// Sends a new draft of a new account `name` whose SMTP server is `port` (a password of its own when given):
    /// the attempt must fail and be recorded; returns the draft and its `SendFailed`.
    private func sendFailing(account name: String, smtpPort port: UInt16, password: String? = nil) throws -> (String, SendFailed) {
        try addAccount(name, smtpPort: port, password: password)
        let id = try draft("Through \(name)", account: name)
        _ = try outbox.queue(id, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(id), .failed)
        return (id, try XCTUnwrap(try lastFailure(id), "a SendFailed is recorded"))
    }

    func testA421AtTheGreetingIsRecordedAsATemporaryFailure() throws {
        let peer = try ScriptedServer([.send("421 4.3.2 Service not available, closing channel\r\n"), .waitForClose])
        let (id, failure) = try sendFailing(account: "greet421", smtpPort: peer.port)
        XCTAssertFalse(failure.permanent)
        XCTAssertTrue(failure.reason.contains("421"), failure.reason)
        XCTAssertGreaterThan(try XCTUnwrap(failure.retryAt), Timestamp.now, "retried with backoff")
        XCTAssertEqual(try views.outboxItem(draftID: id)?.state, .failed)
        XCTAssertEqual(try types(id), [.draftSaved, .messageQueued, .sendStarted, .sendFailed])
        XCTAssertTrue(try outbox.reclaimAbandoned(account: "greet421").isEmpty, "a failed message is not taken for abandoned")
    }

    /// A server that offers no STARTTLS on the submission port: the password is not sent, and the message fails for
    /// good with the reason (a TLS policy the user must fix, not retried blindly).
    func testAServerWithoutSTARTTLSIsAPermanentFailureWithTheReason() throws {
        let peer = try ScriptedServer([.send("220 plain.example ESMTP\r\n"), .readLine, .send("250 plain.example\r\n"), .waitForClose])
        let (_, failure) = try sendFailing(account: "nostarttls", smtpPort: peer.port)
        XCTAssertTrue(failure.permanent)
        XCTAssertTrue(failure.reason.contains("STARTTLS"), failure.reason)
        XCTAssertFalse(try peer.clientLines().contains { $0.uppercased().hasPrefix("AUTH") }, "no credential over plain text")
    }

    func testARefusedLoginIsRecordedAsAPermanentFailureWithTheReason() throws {
        let (_, failure) = try sendFailing(account: "badlogin", smtpPort: smtp.submissionPort, password: "not-the-password")
        XCTAssertTrue(failure.permanent, "a refused login is not retried blindly")
        XCTAssertNil(failure.retryAt)
        XCTAssertTrue(failure.reason.contains("535") && failure.reason.contains("outbox retry"), failure.reason)
        let listing = try mailstore(["outbox", "--account", "badlogin"]).stdout
        XCTAssertTrue(listing.contains("failed") && listing.contains("535"), listing)
    }

    /// `send` waiting for the send lock past its bound: the due message is recorded as failed for now (it had stayed
    /// queued, and 15 s later been put back among the drafts as if its process had ended), and is sent by a retry.
    func testASendLockHeldPastTheWaitIsRecordedAsATemporaryFailure() throws {
        let id = try draft("Lock held")
        let queued = try outbox.queue(id, undoDelay: 0)
        let other = try AccountLock(store: store.directory, kind: "send", account: accountName, waitSeconds: 0)
        XCTAssertEqual(try outbox.deliver(id, lockWait: 0.3), .failed)
        other.release()
        let failure = try XCTUnwrap(try lastFailure(id))
        XCTAssertFalse(failure.permanent)
        XCTAssertNotNil(failure.retryAt)
        XCTAssertTrue(failure.reason.contains("send lock"), failure.reason)
        XCTAssertEqual(try outbox.deliver(id), .sent)
        XCTAssertTrue(try spooled(queued.messageID))
    }

    // MARK: - A live send is never taken back (bug: a `send` waiting for the send lock past the reclaim age was)

    /// How many copies of `messageID` the SMTP server took.
    private func spooledCount(_ messageID: String) throws -> Int {
        try smtp.spoolEntries().filter { e in
            MailParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: smtp.spoolDir + "/" + e.file)))).messageID == messageID
        }.count
    }

    /// `mailstore send` in another process waits for the account's send lock (held here) far past the reclaim age
    /// (`MAILSTORE_OUTBOX_GRACE` 0.2 s): `outbox send` and `sync` in other processes leave its message alone (they had
    /// taken it back as "the process sending it ended", and the `send` then said "taken back"), and once the lock is
    /// free it goes out, once, and its claim file is gone.
    func testASendWaitingForTheSendLockPastTheReclaimAgeIsNotTakenBack() throws {
        let id = try draft("Waiting for the send lock")
        let grace = ["MAILSTORE_OUTBOX_GRACE": "0.2"]
        let other = try AccountLock(store: store.directory, kind: "send", account: accountName, waitSeconds: 0)
        let sender = try startMailstore(["send", id, "--undo-delay", "0"], env: grace)
        defer {
            if sender.isRunning { kill(sender.processIdentifier, SIGKILL) }
            sender.waitUntilExit()
        }
        var deadline = Date().addingTimeInterval(20)
        while try store.latestViews().outboxItem(draftID: id)?.state != .queued && Date() < deadline { usleep(50_000) }
        let due = try XCTUnwrap(try views.outboxItem(draftID: id)?.dueAt, "queued by the sender")
        // Well past the reclaim age, the sender still waiting for the lock.
        while Timestamp.now.microseconds < due.microseconds + 1_000_000 { usleep(50_000) }
        XCTAssertTrue(sender.isRunning)
        let round = try mailstore(["outbox", "send", "--account", accountName], env: grace)
        XCTAssertFalse(round.stderr.contains("is back"), round.stderr)
        let synced = try mailstore(["sync", "--account", accountName, "--quiet"], env: grace)
        XCTAssertFalse(synced.stderr.contains("is back"), synced.stderr)
        _ = try store.latestViews()
        XCTAssertEqual(try views.outboxItem(draftID: id)?.state, .queued, "still the waiting sender's")
        other.release()
        deadline = Date().addingTimeInterval(30)
        while sender.isRunning && Date() < deadline { usleep(50_000) }
        XCTAssertFalse(sender.isRunning, "the sender ends once it has the lock")
        sender.waitUntilExit()
        XCTAssertEqual(sender.terminationStatus, 0)
        XCTAssertEqual(try types(id), [.draftSaved, .messageQueued, .sendStarted, .messageSent, .draftDeleted])
        var messageID = ""
        try store.log.scan(filter: ScanFilter(types: [.messageQueued], stream: .draft(id))) { ev in
            if case .messageQueued(let q) = try ev.decode() { messageID = q.messageID }
            return true
        }
        XCTAssertEqual(try spooledCount(messageID), 1, "sent once")
        XCTAssertEqual(ScratchFolder.entries(of: SendClaim.folder(store.directory), most: 10), [], "no claim file left")
    }

    /// An `outbox retry` of a queued message whose `send` ended (no claim held: taken back 0 s past its due time here)
    /// holds the message's claim while it sends: a reclaim landing while it waits for the server (after its connection
    /// is made, before `SendStarted`) leaves it alone, and it is sent (it had been taken back, and the retry said so).
    func testARetrySendingAQueuedMessageIsNotTakenBackMeanwhile() throws {
        let id = try draft("Retried while queued")
        let queued = try outbox.queue(id, undoDelay: 0)
        setenv("MAILSTORE_OUTBOX_GRACE", "0", 1)
        defer { unsetenv("MAILSTORE_OUTBOX_GRACE") }
        while Timestamp.now <= queued.dueAt { usleep(10_000) }
        var retry = outbox
        var reclaimed: [String]?
        retry.beforeCommitting = { [outbox, accountName] in reclaimed = try outbox.reclaimAbandoned(account: accountName) }
        XCTAssertEqual(try retry.deliver(id), .sent)
        XCTAssertEqual(reclaimed, [], "nothing taken back while the retry sends it")
        XCTAssertEqual(try spooledCount(queued.messageID), 1)
        XCTAssertEqual(ScratchFolder.entries(of: SendClaim.folder(store.directory), most: 10), [], "no claim file left")
    }

    // MARK: - One message's or account's trouble stops no other (bug: `outbox send` and the watch ended)

    /// `outbox send` of every account: an account whose SMTP server answers 421 records that on its message, and the
    /// other account's due message is still sent (it had ended with exit 5 at the first account).
    func testAnAccountsSMTPTroubleDoesNotStopOutboxSendOfTheOthers() throws {
        let peer = try ScriptedServer([.send("421 4.3.2 Service not available, closing channel\r\n"), .waitForClose])
        try addAccount("aaa-broken", smtpPort: peer.port)
        let broken = try draft("To a broken server", account: "aaa-broken")
        try failedAndDue(broken, account: "aaa-broken")
        let fine = try draft("To a working server")
        try failedAndDue(fine, account: accountName)
        // Exit 5: a message it tried was not sent (it had exited 0); the other account's was sent all the same.
        let r = try mailstore(["outbox", "send"], expect: 5)
        XCTAssertTrue(r.stdout.contains("\(broken)  failed: ") && r.stdout.contains("\(fine)  sent"), r.stdout)
        _ = try store.latestViews()
        XCTAssertEqual(try views.outboxItem(draftID: broken)?.state, .failed)
        let reason = try lastFailure(broken)?.reason ?? ""
        XCTAssertTrue(reason.contains("421 4.3.2"), reason)
        XCTAssertNil(try views.draft(id: fine), "the other account's message was sent and its draft deleted")
    }

    // MARK: - Deleting a draft in the outbox (bug: deleted, sent anyway, a zombie outbox entry)

    func testDeletingADraftInTheOutboxIsRefusedUntilItIsTakenBack() throws {
        let id = try draft("Queued, not deleted")
        _ = try outbox.queue(id, undoDelay: 60)
        XCTAssertThrowsError(try drafts.delete(id)) { XCTAssertEqual($0 as? DraftError, .deleteInOutbox(id, "queued"), "\($0)") }
        let r = try mailstore(["draft", "delete", id], expect: 7)
        XCTAssertTrue(r.stderr.contains("send --undo") && r.stderr.contains("outbox cancel"), r.stderr)
        _ = try store.latestViews()
        XCTAssertNotNil(try views.draft(id: id))
        XCTAssertEqual(try views.outboxItem(draftID: id)?.state, .queued)
        try outbox.cancel(id)
        try drafts.delete(id)
        XCTAssertNil(try views.draft(id: id))
    }

    /// A message whose draft was deleted while it was in the outbox (an older build allowed it) is taken out of the
    /// outbox with a warning, and the account's other due message is sent (it had stopped every `outbox send`).
    func testAMessageWhoseDraftIsGoneIsSkippedAndTheOthersSent() throws {
        let zombie = try draft("Deleted while queued")
        _ = try outbox.queue(zombie, undoDelay: 0)
        try store.commit([
            NewEvent(event: .sendStarted(SendStarted(draftID: zombie, attempt: 1)), account: accountName, stream: .draft(zombie), actor: .system),
            NewEvent(event: .draftDeleted(DraftDeleted(draftID: zombie)), account: accountName, stream: .draft(zombie), actor: .user),
            NewEvent(event: .sendFailed(SendFailed(draftID: zombie, reason: "connection lost", permanent: false,
                                                   retryAt: Timestamp(Date().addingTimeInterval(-1)))),
                     account: accountName, stream: .draft(zombie), actor: .sync),
        ])
        XCTAssertEqual(try views.outboxItem(draftID: zombie)?.state, .failed)
        let fine = try draft("Still sent")
        try failedAndDue(fine, account: accountName)
        var skipped: [String] = []
        let done = try outbox.deliverDue(account: accountName) { id, _ in skipped.append(id) }
        XCTAssertEqual(skipped, [zombie])
        XCTAssertEqual(done.first { $0.0 == fine }?.1, .sent)
        XCTAssertNotEqual(try views.outboxItem(draftID: zombie)?.state.inOutbox, true, "out of the outbox")
        XCTAssertTrue(try outbox.deliverDue(account: accountName).isEmpty, "nothing left to skip")
    }

    // MARK: - A retry of a message another process sent

    func testARetryOfAMessageSentMeanwhileSaysSent() throws {
        let id = try draft("Sent elsewhere")
        _ = try outbox.queue(id, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(id), .sent)
        XCTAssertEqual(try outbox.deliver(id), .sent, "it was sent, not taken back")
    }
}
