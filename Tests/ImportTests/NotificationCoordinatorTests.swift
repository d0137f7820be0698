import EventModel
import Foundation
import MailStore
import TestSupport
import XCTest

/// The notification coordinator on a real store (no server): delivery recorded once, late ones expired,
/// the app's own withdrawal.
final class NotificationCoordinatorTests: XCTestCase {
    func decided(_ id: String, thread: String, at: Timestamp) -> NewEvent {
        NewEvent(event: .notificationDecided(NotificationDecided(emailID: id, threadID: thread, outcome: .posted, reason: "passed", syncTime: at,
                                                                 title: "t", subtitle: "s", body: "b", fromAddress: "a@b.c")),
                 account: "work", stream: .email(id), actor: .system)
    }

    func testDeliveredOnceExpiredWhenLateAndWithdrawnByTheApp() throws {
        let dir = TemporaryDirectory("notify")
        let store = try MailStore.create(at: dir.file("store"))
        let c = NotificationCoordinator(store: store)
        let t0 = Timestamp(microseconds: 1_700_000_000_000_000)
        _ = try store.commit([decided("old", thread: "T0", at: t0), decided("new", thread: "T1", at: Timestamp(microseconds: t0.microseconds + 7_000_000_000))])
        XCTAssertEqual(try c.resumeSequence(account: "work", fallback: 99), try store.head().sequence, "after the last decision")
        XCTAssertEqual(try c.resumeSequence(account: "home", fallback: 99), 99, "no decision yet: the fallback")
        var posted: [String] = []
        let now = Timestamp(microseconds: t0.microseconds + 7_200_000_000)  // 2 h after the first, 200 s after the second
        let r = try c.deliverPending(now: now, post: { posted.append($0.decision.emailID); return true }, withdraw: { _, _ in true })
        XCTAssertEqual(posted, ["new"])
        XCTAssertEqual(r.delivered, 1)
        XCTAssertEqual(try c.decision(emailID: "old")?.state, .withdrawn, "too late to show: expired")
        XCTAssertEqual(try c.decision(emailID: "new")?.state, .delivered)
        try c.deliverPending(now: now, post: { posted.append($0.decision.emailID); return true }, withdraw: { _, _ in true })
        XCTAssertEqual(posted, ["new"], "never twice")
        XCTAssertEqual(try c.didMarkThreadRead(threadID: "T1"), ["new"])
        XCTAssertEqual(try c.decision(emailID: "new")?.state, .withdrawn)
        XCTAssertEqual(try c.didRemoveThread(threadID: "T1"), [])
        // Reopened (a restart): the same state from the log.
        let again = NotificationCoordinator(store: try MailStore.open(at: dir.file("store")))
        XCTAssertTrue(try again.pendingDeliveries().isEmpty)
        XCTAssertEqual(try again.recent().map(\.decision.emailID), ["new", "old"])
    }
}

/// Mail with no recorded arrival (an import, or an event of `EmailReceived` schema 1): its date counts, but never later
/// than when the log recorded it, so a Date header in the future is not newer than mail that just arrived.
final class NotificationArrivalFallbackTests: XCTestCase {
    func testWithoutAnArrivalTheDateCountsButNoLaterThanItsRecord() throws {
        let dir = TemporaryDirectory("notify-arrival")
        let store = try MailStore.create(at: dir.file("store"))
        let md = dir.file("md")
        for sub in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: md + "/" + sub, withIntermediateDirectories: true) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        var options = Importer.Options()
        options.account = "work"
        options.underServerAccount = true  // as a sync files it
        func importing(_ messages: [(String, Int)]) throws {
            for (subject, offset) in messages {
                let text = "Message-ID: <\(subject)@example.com>\r\nFrom: Ann <ann@example.com>\r\nTo: me@example.com\r\n"
                    + "Subject: \(subject)\r\nDate: \(f.string(from: Date().addingTimeInterval(Double(offset))))\r\n\r\nhello\r\n"
                XCTAssertTrue(FileManager.default.createFile(atPath: md + "/cur/\(subject):2,", contents: Data(text.utf8)))
            }
            _ = try Importer(store: store, options: options).importMaildir(md)
        }
        // Recorded first: a Date two hours ahead, and one ten minutes old.
        try importing([("future", 7_200), ("stale", -600)])
        usleep(20_000)
        // Recorded after them: ten dated a minute ahead (a sender's clock running fast).
        try importing((0..<10).map { ("recent\($0)", 60) })
        var ids: [String] = []
        try store.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode() {
                XCTAssertNil(p.receivedAt, "an import knows no arrival")
                ids.append(p.emailID)
            }
            return true
        }
        XCTAssertEqual(ids.count, 12)
        let decided = try NotificationCoordinator(store: store).didSyncNewEmails(account: "work", emailIDs: ids,
                                                                                 sync: NotificationSync(time: .now))
        func outcome(_ subject: String) -> (NotificationOutcome, String) {
            decided.first { $0.subtitle == subject }.map { ($0.outcome, $0.reason) } ?? (.suppressed, "not decided")
        }
        XCTAssertTrue(outcome("stale") == (.suppressed, "too-old"))
        XCTAssertEqual(decided.filter { $0.outcome == .posted }.count, 10)
        XCTAssertTrue(outcome("future") == (.badgeOnly, "flood-cap"),
                      "its Date counts as when it was recorded, before the ten: it does not beat them in the cap")
        for i in 0..<10 { XCTAssertEqual(outcome("recent\(i)").0, .posted, "recent\(i)") }
    }
}

/// AC-N-16..19: acting on a notification goes through the thread-action and compose use cases, withdraws
/// the thread's notifications, and reports the badge after it.
final class NotificationActionTests: XCTestCase {
    var dir: TemporaryDirectory!
    var store: MailStore!
    /// Email id by subject.
    var ids: [String: String] = [:]

    override func setUpWithError() throws {
        dir = TemporaryDirectory("notify-actions")
        store = try MailStore.create(at: dir.file("store"))
        try store.addAccount(AccountSettings(name: "work", email: "me@example.com", host: "imap.example.com", port: 993, security: "tls",
                                             credential: .environment("MAILSTORE_TEST_UNUSED"), smtpHost: "smtp.example.com"))
        let md = dir.file("md")
        for sub in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: md + "/" + sub, withIntermediateDirectories: true) }
        for (i, subject) in ["Lunch?", "Re: Plans", "Report", "Party"].enumerated() {
            let text = "Message-ID: <m\(i)@example.com>\r\nReferences: <r\(i)@example.com>\r\nFrom: Ann <ann@example.com>\r\n"
                + "To: me@example.com\r\nSubject: \(subject)\r\nDate: Mon, 2 Sep 2024 10:0\(i):00 +0000\r\n\r\nhello \(i)\r\n"
            XCTAssertTrue(FileManager.default.createFile(atPath: md + "/cur/\(i):2,", contents: Data(text.utf8)))
        }
        var options = Importer.Options()
        options.account = "work"
        options.underServerAccount = true  // as a sync files it
        _ = try Importer(store: store, options: options).importMaildir(md)
        _ = try store.commit([("Archive", FolderRole.archive), ("Trash", .trash)].map { f, role in
            NewEvent(event: .folderDiscovered(FolderDiscovered(folder: f, displayName: f, role: role)), account: "work",
                     stream: .folder(account: "work", path: f), actor: .sync)
        })
        let page = try FetchThreadsUseCase(store: store).fetchThreads(accountId: "work", folderId: "INBOX", pageSize: 10)
        XCTAssertEqual(page.threads.count, 4)
        let at = Timestamp(microseconds: 1_725_271_200_000_000)
        for t in page.threads {
            let emailID = t.id
            ids[t.subject] = emailID
            _ = try store.commit([NewEvent(event: .notificationDecided(NotificationDecided(
                emailID: emailID, threadID: t.id, outcome: .posted, reason: "passed", syncTime: at, title: "Ann", subtitle: t.subject,
                body: "", fromAddress: "ann@example.com")), account: "work", stream: .email(emailID), actor: .system)])
        }
        // Shown on the screen: delivered.
        let c = NotificationCoordinator(store: store)
        let r = try c.deliverPending(now: Timestamp(microseconds: at.microseconds + 1_000_000), post: { _ in true }, withdraw: { _, _ in true })
        XCTAssertEqual(r.delivered, 4)
    }

    override func tearDown() {
        store = nil
        dir = nil
    }

    func testEachActionUsesItsUseCaseWithdrawsAndUpdatesTheBadge() throws {
        let c = NotificationCoordinator(store: store)
        XCTAssertEqual(try FetchThreadsUseCase(store: store).fetchBadgeCount(), 4)
        let lunch = try XCTUnwrap(ids["Lunch?"]), plans = try XCTUnwrap(ids["Plans"] ?? ids["Re: Plans"])
        let report = try XCTUnwrap(ids["Report"]), party = try XCTUnwrap(ids["Party"])
        let read = try c.respond(to: "email-" + lunch, action: .markRead)
        XCTAssertEqual(read.withdrawn, [lunch])
        XCTAssertEqual(read.badge, 3)
        XCTAssertEqual(try store.pendingActions(account: "work").map(\.kind.rawValue), ["read"])
        let archived = try c.respond(to: "email-" + plans, action: .archive)
        XCTAssertEqual(archived.badge, 2, "archived out of the Inbox")
        XCTAssertEqual(archived.withdrawn, [plans])
        let deleted = try c.respond(to: "email-" + report, action: .delete)
        XCTAssertEqual(deleted.badge, 1)
        XCTAssertEqual(try store.pendingActions(account: "work").map(\.kind.rawValue), ["read", "archive", "delete"])
        // A reply: "Re:" once, threading headers from the original, queued for sending, notification withdrawn.
        let reply = try c.respond(to: "email-" + party, action: .reply, replyText: "Thanks, I'll be there!")
        let draftID = try XCTUnwrap(reply.draftID)
        let draft = try XCTUnwrap(try store.draft(id: draftID)).latest
        XCTAssertEqual(draft.subject, "Re: Party")
        XCTAssertEqual(draft.to.map(\.email), ["ann@example.com"])
        XCTAssertEqual(draft.inReplyTo, "m3@example.com")
        XCTAssertEqual(draft.references, ["r3@example.com", "m3@example.com"])
        XCTAssertTrue(draft.body.hasPrefix("Thanks, I'll be there!"))
        XCTAssertEqual(try store.outboxItem(draftID: draftID)?.state.description, "queued")
        XCTAssertEqual(reply.withdrawn, [party])
        // Queued to go at once, with no process bound to send it: the next round (`outbox send`, a sync, a watch) sends it,
        // never taking it back as abandoned however late (it had gone back to the drafts 15 s later, never sent).
        setenv("MAILSTORE_OUTBOX_GRACE", "0", 1)
        defer { unsetenv("MAILSTORE_OUTBOX_GRACE") }
        Thread.sleep(forTimeInterval: 0.01)
        let outbox = OutboxUseCase(store: store)
        XCTAssertEqual(try outbox.reclaimAbandoned(account: "work"), [], "not taken back")
        var tried: [String] = []
        let touched = try outbox.deliverDue(account: "work") { id, _ in tried.append(id) }
        XCTAssertTrue(tried.contains(draftID) || touched.contains { $0.0 == draftID }, "sent by the next round (no SMTP here): \(touched)")
        XCTAssertNotEqual(try store.outboxItem(draftID: draftID)?.state.description, "draft")
        XCTAssertThrowsError(try c.respond(to: "email-nope", action: .markRead))
        XCTAssertThrowsError(try c.respond(to: "nonsense", action: .archive))
    }

    func testMutesOfThreadsThatAreGoneAreRemoved() throws {
        let c = NotificationCoordinator(store: store)
        let party = try XCTUnwrap(ids["Party"])
        try c.mute(thread: party)
        // A thread the views do not know is not muted (exit 4 in the CLI) and records nothing.
        XCTAssertThrowsError(try c.mute(thread: "0123456789abcdef")) { error in
            guard case .threadNotFound(let id)? = error as? ThreadListError else { return XCTFail("\(error)") }
            XCTAssertEqual(id, "0123456789abcdef")
        }
        XCTAssertEqual(try c.settings().mutedThreads, [party])
        // A mute whose thread went since (its mail expunged; here written as the mute was before the thread existed).
        let gone = NotificationPreferenceChanged(change: .threadMuted, value: "0123456789abcdef")
        _ = try store.commit([NewEvent(event: .notificationPreferenceChanged(gone), account: "",
                                       stream: NotificationCoordinator.settingsStream, actor: .user)])
        XCTAssertEqual(try c.removeMutesOfGoneThreads(), ["0123456789abcdef"])
        XCTAssertEqual(try c.settings().mutedThreads, [party])
        XCTAssertEqual(try c.removeMutesOfGoneThreads(), [], "nothing twice")
    }
}
