import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// Notifications against the real Dovecot: the first sync posts nothing, new mail is posted with its
/// content, 15 at once give 10 banners, a read on another client owes a withdrawal, a VIP bypasses mute and
/// quiet hours, and `sync --watch --notify-command` delivers exactly once across a failed delivery.
final class NotificationSyncTests: SyncTestCase {
    /// A message dated now (recency is measured from the date received).
    static func fresh(_ id: String, subject: String, from: String = "Alice Example <alice@example.com>", secondsAgo: Int = 0) -> [UInt8] {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let date = f.string(from: Date().addingTimeInterval(-Double(secondsAgo)))
        let h = "From: \(from)\r\nTo: Test <test@example.com>\r\nSubject: \(subject)\r\nDate: \(date)\r\n"
            + "Message-ID: <\(id)@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            + "Hi team, let's discuss the Q1 budget review next week (\(id)).\r\n"
        return Array(h.utf8)
    }

    /// APPENDs a fresh message: its Date header `secondsAgo` old, its arrival (INTERNALDATE) `arrivedSecondsAgo` old
    /// (nil: now, the server's clock).
    func append(_ c: IMAPConnection, _ id: String, subject: String, from: String = "Alice Example <alice@example.com>", secondsAgo: Int = 0,
                arrivedSecondsAgo: Int? = nil, to mailbox: MailboxName = .inbox) throws {
        let arrived = arrivedSecondsAgo.map { InternalDate(epochSeconds: Int64(Date().timeIntervalSince1970) - Int64($0)) }
        _ = try c.append(to: mailbox, message: NotificationSyncTests.fresh(id, subject: subject, from: from, secondsAgo: secondsAgo),
                         date: arrived)
    }

    /// Syncs and decides as `sync --watch` does; returns the decisions.
    func syncAndDecide(_ coordinator: NotificationCoordinator, first: Bool? = nil) throws -> [NotificationDecided] {
        let isFirst = try first ?? coordinator.isFirstSync(account: accountName)
        let before = try store.head().sequence
        try sync()
        return try coordinator.didSync(account: accountName, after: before, sync: NotificationSync(time: .now, isFirstSync: isFirst))
    }

    func testFirstSyncPostsNothingThenNewMailIsPostedWithItsContentAndFifteenGiveTen() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", (0..<500).map { (id: "old\($0)", subject: "Old \($0)", parent: nil, flags: [String]()) }, via: c)
        try addAccount()
        let coordinator = NotificationCoordinator(store: store)
        XCTAssertTrue(try coordinator.isFirstSync(account: accountName))
        let first = try syncAndDecide(coordinator)
        XCTAssertEqual(first.count, 500)
        XCTAssertTrue(first.allSatisfy { $0.outcome == .suppressed && $0.reason == "first-sync" })
        XCTAssertTrue(try coordinator.pendingDeliveries().isEmpty)
        XCTAssertFalse(try coordinator.isFirstSync(account: accountName))

        try append(c, "new1", subject: "Meeting Tomorrow", from: "John Doe <john@example.com>")
        let second = try syncAndDecide(coordinator)
        XCTAssertEqual(second.count, 1)
        let d = try XCTUnwrap(second.first)
        XCTAssertEqual(d.outcome, .posted)
        XCTAssertEqual(d.title, "John Doe")
        XCTAssertEqual(d.subtitle, "Meeting Tomorrow")
        XCTAssertTrue(d.body.hasPrefix("Hi team, let's discuss"), d.body)
        XCTAssertEqual(d.fromAddress, "john@example.com")
        XCTAssertEqual(try coordinator.pendingDeliveries().map(\.decision.emailID), [d.emailID])
        // A second decision round over the same emails decides nothing again.
        XCTAssertTrue(try coordinator.didSync(account: accountName, after: 0, sync: NotificationSync(time: .now)).isEmpty)

        for i in 0..<15 { try append(c, "flood\(i)", subject: "Flood \(i)", secondsAgo: 100 - i, arrivedSecondsAgo: 100 - i) }
        let flood = try syncAndDecide(coordinator)
        XCTAssertEqual(flood.filter { $0.outcome == .posted }.count, 10)
        XCTAssertEqual(flood.filter { $0.outcome == .badgeOnly }.count, 5)
        let badgeOnly = Set(flood.filter { $0.outcome == .badgeOnly }.map(\.subtitle))
        XCTAssertEqual(badgeOnly, Set((0..<5).map { "Flood \($0)" }), "the 5 oldest are badge-only")
    }

    func testAReadOnAnotherClientOwesAWithdrawalAndAVIPBypassesMuteAndQuietHours() throws {
        let c = try server()
        defer { c.logout() }
        let coordinator = try seededCoordinator(via: c)
        try append(c, "r1", subject: "Read me elsewhere")
        let posted = try XCTUnwrap(try syncAndDecide(coordinator).first)
        XCTAssertEqual(posted.outcome, .posted)
        var shown: [String] = []
        try coordinator.deliverPending(post: { shown.append($0.decision.emailID); return true }, withdraw: { _, _ in true })
        XCTAssertEqual(shown, [posted.emailID])
        // Delivered once: a second delivery round shows nothing.
        try coordinator.deliverPending(post: { shown.append($0.decision.emailID); return true }, withdraw: { _, _ in true })
        XCTAssertEqual(shown.count, 1)

        _ = try c.select(.inbox)
        _ = try c.uidStore(UIDSet(try c.uidSearch([.all])), .add, flags: ["\\Seen"])
        try sync()
        let owed = try coordinator.pendingWithdrawals()
        XCTAssertEqual(owed.map(\.threadID), [posted.threadID])
        XCTAssertEqual(owed.first?.withdrawal.emailIDs, [posted.emailID])
        XCTAssertEqual(owed.first?.withdrawal.reason, "read")
        var withdrawn: [String] = []
        try coordinator.deliverPending(post: { _ in true }, withdraw: { t, _ in withdrawn.append(t); return true })
        XCTAssertEqual(withdrawn, [posted.threadID])
        XCTAssertTrue(try coordinator.pendingWithdrawals().isEmpty)
        XCTAssertEqual(try coordinator.decision(emailID: posted.emailID)?.state, .withdrawn)

        // A VIP (any case) in a muted thread during quiet hours still posts; the same without the VIP does not.
        try coordinator.mute(thread: posted.threadID)
        let minute = UInt32((Int(Date().timeIntervalSince1970) + TimeZone.current.secondsFromGMT()) / 60 % 1440)
        try coordinator.setQuietHours(QuietHours(start: (minute + 1380) % 1440, end: (minute + 60) % 1440))
        try coordinator.addVIP("ALICE@example.com")
        XCTAssertEqual(try coordinator.settings().vips, ["alice@example.com"])
        _ = try c.append(to: .inbox, message: Array(String(decoding: NotificationSyncTests.fresh("r2", subject: "Re: Read me elsewhere"), as: UTF8.self)
            .replacingOccurrences(of: "MIME-Version", with: "In-Reply-To: <r1@example.com>\r\nMIME-Version").utf8))
        try append(c, "plain", subject: "Not a VIP", from: "Bob <bob@example.com>")
        let decided = try syncAndDecide(coordinator)
        let vip = try XCTUnwrap(decided.first { $0.subtitle == "Re: Read me elsewhere" })
        XCTAssertEqual(vip.threadID, posted.threadID, "the reply is in the muted thread")
        XCTAssertEqual(vip.outcome, .posted)
        XCTAssertEqual(vip.reason, "vip")
        let plain = try XCTUnwrap(decided.first { $0.subtitle == "Not a VIP" })
        XCTAssertEqual(plain.outcome, .suppressed)
        XCTAssertEqual(plain.reason, "quiet-hours")
    }

    /// Outlook's unquoted comma in a VIP's name (`From: Smith, John <vipjohn@example.org>`) during quiet hours: the
    /// sender is the VIP's address, named `Smith, John`, as with the quoted name (it had been a sender `Smith`,
    /// suppressed by the quiet hours).
    func testAVIPWithAnUnquotedCommaInTheNameBypassesQuietHours() throws {
        let c = try server()
        defer { c.logout() }
        let coordinator = try seededCoordinator(via: c)
        let minute = UInt32((Int(Date().timeIntervalSince1970) + TimeZone.current.secondsFromGMT()) / 60 % 1440)
        try coordinator.setQuietHours(QuietHours(start: (minute + 1380) % 1440, end: (minute + 60) % 1440))
        try coordinator.addVIP("vipjohn@example.org")
        try append(c, "outlook", subject: "Unquoted", from: "Smith, John <vipjohn@example.org>")
        try append(c, "quoted", subject: "Quoted", from: "\"Smith, John\" <vipjohn@example.org>")
        let decided = try syncAndDecide(coordinator)
        for subject in ["Unquoted", "Quoted"] {
            let d = try XCTUnwrap(decided.first { $0.subtitle == subject }, subject)
            XCTAssertEqual(d.outcome, .posted, subject)
            XCTAssertEqual(d.reason, "vip", subject)
            XCTAssertEqual(d.title, "Smith, John", subject)
            XCTAssertEqual(d.fromAddress, "vipjohn@example.org", subject)
        }
    }

    func testWatchRunsTheNotifyCommandOnceEvenAfterAFailedDelivery() throws {
        let c = try server()
        defer { c.logout() }
        try seedAndAddAccountByCLI(via: c)
        let out = dir.file("posted.jsonl")
        // First run: the notify command fails, so the decision stays pending.
        var p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "2", "--notify-command", "cat > /dev/null; exit 3"])
        XCTAssertTrue(try waitFor { try self.decisions().count >= 1 }, "the first sync was decided")
        try append(c, "live", subject: "Arrived while watching", from: "Carol <carol@example.com>")
        XCTAssertTrue(try waitFor { try self.decisions().contains { $0.decision.outcome == .posted } }, "the new mail was decided")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        // Second run: the pending one is delivered once.
        p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "2", "--notify-command", "cat >> '\(out)'"])
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        XCTAssertTrue(try waitFor { try self.decisions().contains { $0.state == .delivered } }, "delivered")
        usleep(2_500_000)  // another IDLE round: nothing is posted twice
        kill(p.processIdentifier, SIGKILL)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "\(lines)")
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let content = try XCTUnwrap(obj["content"] as? [String: Any])
        XCTAssertEqual(content["title"] as? String, "Carol")
        XCTAssertEqual(content["subtitle"] as? String, "Arrived while watching")
        XCTAssertEqual((content["identifier"] as? String)?.hasPrefix("email-"), true)
        XCTAssertEqual((content["userInfo"] as? [String: Any])?["fromAddress"] as? String, "carol@example.com")
        XCTAssertEqual(obj["outcome"] as? String, "posted")
        let followed = try mailstore(["notifications", "follow", "--json", "--from-start", "--max-lines", "1"]).stdout
        let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(followed.utf8)) as? [String: Any], followed)
        XCTAssertEqual(event["event"] as? String, "posted")
        XCTAssertEqual((event["content"] as? [String: Any])?["subtitle"] as? String, "Arrived while watching")
        let emailID = try XCTUnwrap(event["emailId"] as? String)
        let history = try mailstore(["history", "--email", emailID]).stdout
        XCTAssertTrue(history.contains("NotificationDecided") && history.contains("NotificationDelivered"), history)
        let listed = try mailstore(["notifications", "--json"]).stdout
        XCTAssertTrue(listed.contains("\"first-sync\"") && listed.contains("\"delivered\""), listed)
    }

    /// A sender without a name at an internationalised domain: the notify command's title (the sender's address)
    /// shows the domain as people read it (`bob@bücher.example`), as `show` prints it, where it had shown the A-label;
    /// `userInfo.fromAddress` keeps the address as the mail wrote it, and `notifications` prints the title so too.
    func testANotificationTitlesAnInternationalisedSenderAsPeopleReadIt() throws {
        let c = try server()
        defer { c.logout() }
        try seedAndAddAccountByCLI(via: c)
        let out = dir.file("posted.jsonl")
        let p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "2", "--notify-command", "cat >> '\(out)'"])
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        XCTAssertTrue(try waitFor { try self.decisions().count >= 1 }, "the first sync was decided")
        try append(c, "idn", subject: "Your order", from: "bob@xn--bcher-kva.example")
        XCTAssertTrue(try waitFor { try self.decisions().contains { $0.state == .delivered } }, "delivered")
        kill(p.processIdentifier, SIGKILL)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "\(lines)")
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let content = try XCTUnwrap(obj["content"] as? [String: Any])
        XCTAssertEqual(content["title"] as? String, "bob@bücher.example")
        XCTAssertEqual((content["userInfo"] as? [String: Any])?["fromAddress"] as? String, "bob@xn--bcher-kva.example")
        let listed = try mailstore(["notifications"]).stdout
        XCTAssertTrue(listed.contains("bob@bücher.example - Your order"), listed)
    }

    /// The watch killed while its notify command runs (after the command showed it, before the record): the
    /// notification is not lost; on restart it is shown again with the same identifier (at least once: a
    /// notification center keyed by the identifier replaces it), and then recorded, never a third time.
    func testAKillDuringDeliveryLosesNothing() throws {
        let c = try server()
        defer { c.logout() }
        try seedAndAddAccountByCLI(via: c)
        let out = dir.file("shown.jsonl")
        // The command shows the notification, then the watch dies before recording it.
        var p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "2",
                               "--notify-command", "cat >> '\(out)'; kill -9 $PPID"])
        XCTAssertTrue(try waitFor { try self.decisions().count >= 1 }, "the first sync was decided")
        try append(c, "k1", subject: "Killed while showing")
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)
        XCTAssertEqual(try decisions().first { $0.decision.subtitle == "Killed while showing" }?.state, .decided, "not recorded")
        p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "2", "--notify-command", "cat >> '\(out)'"])
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        XCTAssertTrue(try waitFor { try self.decisions().contains { $0.state == .delivered } }, "delivered after the restart")
        usleep(2_500_000)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "shown, then once more after the crash: \(lines)")
        let ids = try lines.map { try XCTUnwrap((try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["content"] as? [String: Any])["identifier"] as? String }
        XCTAssertEqual(Set(ids).count, 1, "the same identifier both times")
    }

    /// A thread muted by another process (`mailstore mute`) while a watch waits in IDLE has its delivered notification
    /// withdrawn within seconds (the watch looks every 2 s whether the log grew): the withdrawal had waited for the
    /// next sync that changed something, however long (no poll nor IDLE refresh comes in this test).
    func testAMuteFromAnotherProcessIsWithdrawnWithinSecondsWithoutASync() throws {
        let c = try server()
        defer { c.logout() }
        try seedAndAddAccountByCLI(via: c)
        let shown = dir.file("shown.jsonl"), withdrawn = dir.file("withdrawn.jsonl")
        let p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "600", "--poll-interval", "600",
                               "--notify-command", "cat >> '\(shown)'", "--withdraw-command", "cat >> '\(withdrawn)'"])
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        XCTAssertTrue(try waitFor { try self.decisions().count >= 1 }, "the first sync was decided")
        try append(c, "mute1", subject: "Mute this one", from: "Carol <carol@example.com>")
        XCTAssertTrue(try waitFor { try self.decisions().contains { $0.state == .delivered } }, "delivered")
        let thread = try XCTUnwrap(try decisions().first { $0.state == .delivered }?.decision.threadID)
        try mailstore(["mute", thread])
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try !decisions().contains(where: { $0.state == .withdrawn }) { usleep(200_000) }
        XCTAssertEqual(try decisions().first { $0.decision.threadID == thread && $0.decision.subtitle == "Mute this one" }?.state,
                       .withdrawn, "withdrawn within 10 s, no sync in between")
        let line = ((try? String(contentsOfFile: withdrawn, encoding: .utf8)) ?? "").split(separator: "\n")
        XCTAssertEqual(line.count, 1, "\(line)")
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(line.first).utf8)) as? [String: Any])
        XCTAssertEqual(obj["threadId"] as? String, thread)
        XCTAssertEqual(obj["reason"] as? String, "muted")
    }

    /// Thread Y, then thread X, X muted, then a reply naming both that merges X into Y (whose id survives), decided.
    private func mutedThreadMerged(_ c: IMAPConnection, _ coordinator: NotificationCoordinator) throws
        -> (x: NotificationDecided, y: NotificationDecided, reply: NotificationDecided) {
        try append(c, "y1", subject: "Plans", from: "Yann <yann@example.com>")
        let y = try XCTUnwrap(try syncAndDecide(coordinator).first)
        try append(c, "x1", subject: "Other plans", from: "Xena <xena@example.com>")
        let x = try XCTUnwrap(try syncAndDecide(coordinator).first)
        XCTAssertNotEqual(x.threadID, y.threadID)
        try coordinator.mute(thread: x.threadID)
        try appendReply(c, "xy", header: "References: <y1@example.com> <x1@example.com>")
        return (x, y, try XCTUnwrap(try syncAndDecide(coordinator).first))
    }

    /// Appends a reply "Re: both plans" with Message-ID `<id@example.com>` and `header` (References, In-Reply-To).
    private func appendReply(_ c: IMAPConnection, _ id: String, header: String) throws {
        _ = try c.append(to: .inbox, message: Array(String(decoding: NotificationSyncTests.fresh(id, subject: "Re: both plans"), as: UTF8.self)
            .replacingOccurrences(of: "MIME-Version", with: header + "\r\nMIME-Version").utf8))
    }

    /// Spec AC-N-08: a muted conversation stays muted when a reply merges it into an older thread (whose id
    /// survives): the reply is decided `muted` (it had been posted), and a watch start carries the mute to the
    /// surviving thread instead of removing it as a gone thread's (E-21).
    func testAMuteFollowsItsThreadIntoTheThreadItMergesWith() throws {
        let c = try server()
        defer { c.logout() }
        let coordinator = try seededCoordinator(via: c)
        let (x, y, reply) = try mutedThreadMerged(c, coordinator)
        XCTAssertEqual(reply.threadID, y.threadID, "merged into the older thread")
        XCTAssertNil(try views.thread(id: x.threadID), "the muted thread's id is gone")
        XCTAssertEqual(reply.outcome, .suppressed)
        XCTAssertEqual(reply.reason, "muted")
        // A watch start: the mute moves to the surviving thread, not dropped.
        XCTAssertEqual(try coordinator.removeMutesOfGoneThreads(), [x.threadID])
        XCTAssertEqual(try coordinator.settings().mutedThreads, [y.threadID])
        try appendReply(c, "xy2", header: "In-Reply-To: <xy@example.com>")
        let later = try XCTUnwrap(try syncAndDecide(coordinator).first)
        XCTAssertEqual(later.threadID, y.threadID)
        XCTAssertEqual(later.reason, "muted")
    }

    /// An unmute of the thread a muted one merged into lifts that mute too: the merged thread still counted as muted
    /// (the gone thread's mute followed it) and a watch's start carried the mute back to it.
    func testAnUnmuteOfTheThreadAMutedOneMergedIntoLiftsItsMute() throws {
        let c = try server()
        defer { c.logout() }
        let coordinator = try seededCoordinator(via: c)
        let (_, y, reply) = try mutedThreadMerged(c, coordinator)
        XCTAssertEqual(reply.reason, "muted")
        try coordinator.unmute(thread: y.threadID)
        XCTAssertEqual(try coordinator.settings().mutedThreads, [])
        XCTAssertEqual(try coordinator.removeMutesOfGoneThreads(), [], "nothing to carry back")
        try appendReply(c, "xy2", header: "In-Reply-To: <xy@example.com>")
        let later = try XCTUnwrap(try syncAndDecide(coordinator).first)
        XCTAssertEqual(later.threadID, y.threadID)
        XCTAssertNotEqual(later.reason, "muted")
    }

    /// A mute follows a merge when the muted thread's first copy is gone (expunged by another client, archived: the
    /// thread lives on with its other mail, under the same id): the merged thread had been found through that copy's
    /// record alone, and the reply that merged it was posted.
    func testAMuteFollowsAMergeWhenTheThreadsFirstCopyIsGone() throws {
        let c = try server()
        defer { c.logout() }
        let coordinator = try seededCoordinator(via: c)
        try append(c, "y1", subject: "Plans", from: "Yann <yann@example.com>")
        let y = try XCTUnwrap(try syncAndDecide(coordinator).first)
        try append(c, "x1", subject: "Other plans", from: "Xena <xena@example.com>")
        let x = try XCTUnwrap(try syncAndDecide(coordinator).first)
        try appendReply(c, "x2", header: "In-Reply-To: <x1@example.com>")
        XCTAssertEqual(try XCTUnwrap(try syncAndDecide(coordinator).first).threadID, x.threadID)
        try coordinator.mute(thread: x.threadID)
        // Another client deletes the first message: the thread goes on with x2, under x1's id.
        _ = try c.select(.inbox, readOnly: false)
        let uid = try XCTUnwrap(try c.uidSearch([.header("Message-ID", "x1@example.com")]).first)
        _ = try c.uidStore(UIDSet(uid), .add, flags: ["\\Deleted"])
        try c.expunge()
        _ = try syncAndDecide(coordinator)
        XCTAssertNil(try views.emailRecord(id: x.emailID))
        XCTAssertNotNil(try views.thread(id: x.threadID))
        try appendReply(c, "xy", header: "References: <y1@example.com> <x2@example.com>")
        let reply = try XCTUnwrap(try syncAndDecide(coordinator).first)
        XCTAssertEqual(reply.threadID, y.threadID, "merged into the older thread")
        XCTAssertEqual(reply.reason, "muted")
        XCTAssertEqual(try coordinator.removeMutesOfGoneThreads(), [x.threadID])
        XCTAssertEqual(try coordinator.settings().mutedThreads, [y.threadID])
    }

    /// A message's age and its place in the 10-banner cap go by when it arrived (INTERNALDATE, recorded with it as
    /// `EmailReceived.receivedAt`), never by the sender's Date header: an old Date on new mail still posts, a new
    /// Date on old mail is too old, and a Date in the future does not win the cap.
    func testRecencyAndTheCapGoByArrivalNotTheDateHeader() throws {
        let c = try server()
        defer { c.logout() }
        let coordinator = try seededCoordinator(via: c)

        try append(c, "olddate", subject: "Old Date, just arrived", secondsAgo: 600)
        try append(c, "oldarrival", subject: "New Date, arrived long ago", arrivedSecondsAgo: 600)
        try append(c, "future", subject: "Dated two hours ahead", secondsAgo: -7_200, arrivedSecondsAgo: 200)
        for i in 0..<10 { try append(c, "recent\(i)", subject: "Recent \(i)", arrivedSecondsAgo: 10 + i) }
        let decided = try syncAndDecide(coordinator)
        func outcome(_ subject: String) throws -> (NotificationOutcome, String) {
            let d = try XCTUnwrap(decided.first { $0.subtitle == subject }, subject)
            return (d.outcome, d.reason)
        }
        XCTAssertEqual(decided.count, 13)
        XCTAssertEqual(try outcome("Old Date, just arrived").0, .posted, "arrived now: its old Date header does not matter")
        XCTAssertTrue(try outcome("New Date, arrived long ago") == (.suppressed, "too-old"), "arrived 10 minutes ago")
        XCTAssertTrue(try outcome("Dated two hours ahead") == (.badgeOnly, "flood-cap"), "the oldest arrival of the 12 loses the cap")
        XCTAssertTrue(try outcome("Recent 9") == (.badgeOnly, "flood-cap"), "the second oldest arrival")
        XCTAssertEqual(decided.filter { $0.outcome == .posted }.count, 10)
        for i in 0..<9 { XCTAssertEqual(try outcome("Recent \(i)").0, .posted, "Recent \(i)") }

        // The arrival is recorded with the email, as the server gave it.
        var arrivals: [String: Timestamp] = [:]
        try store.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode(), let at = p.receivedAt { arrivals[p.subject] = at }
            return true
        }
        let now = Timestamp.now.microseconds
        let oldArrival = try XCTUnwrap(arrivals["New Date, arrived long ago"]).microseconds
        XCTAssertEqual(Double(now - oldArrival) / 1e6, 600, accuracy: 30)
        let fresh = try XCTUnwrap(arrivals["Old Date, just arrived"]).microseconds
        XCTAssertEqual(Double(now - fresh) / 1e6, 0, accuracy: 30)
    }

    /// A message first synced outside the Inbox (`not-in-inbox`) is decided again when a copy reaches the Inbox (copied
    /// there on another device, as Gmail does when the Inbox label is added): only a posted notification blocks
    /// another. An old message moved to the Inbox keeps its arrival (COPY and MOVE keep INTERNALDATE): too old. Never
    /// posted twice, even when every copy that was posted is gone: a posted message moved out gets no second decision,
    /// and moved back to the Inbox no second banner.
    func testACopyReachingTheInboxLaterIsDecidedButNeverPostedTwice() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "seed", subject: "Seed", parent: nil, flags: [])], via: c)
        try fill("Projects", [(id: "pseed", subject: "Project seed", parent: nil, flags: [])], via: c)
        try addAccount()
        let coordinator = NotificationCoordinator(store: store)
        _ = try syncAndDecide(coordinator)
        let projects = MailboxName(path("Projects"))
        func uids(_ mailbox: MailboxName, _ id: String) throws -> UIDSet {
            _ = try c.select(mailbox)
            let found = try c.uidSearch([.header("Message-ID", "\(id)@example.com")])
            XCTAssertEqual(found.count, 1, id)
            return UIDSet(found)
        }

        try append(c, "elsewhere", subject: "Filed by a rule", to: projects)
        try append(c, "oldfiled", subject: "Filed long ago", arrivedSecondsAgo: 7_200, to: projects)
        let first = try syncAndDecide(coordinator)
        XCTAssertEqual(Set(first.map(\.reason)), ["not-in-inbox"])
        XCTAssertEqual(first.count, 2)

        // Another device puts both in the Inbox: a copy (the Projects copy stays), and a move.
        _ = try c.uidCopy(try uids(projects, "elsewhere"), to: .inbox)
        _ = try c.uidMove(try uids(projects, "oldfiled"), to: .inbox)
        let moved = try syncAndDecide(coordinator)
        XCTAssertEqual(moved.count, 2)
        let posted = try XCTUnwrap(moved.first { $0.subtitle == "Filed by a rule" })
        XCTAssertEqual(posted.outcome, .posted, "the Inbox copy is decided, and posts")
        XCTAssertNotEqual(posted.emailID, first.first { $0.subtitle == "Filed by a rule" }?.emailID)
        let old = try XCTUnwrap(moved.first { $0.subtitle == "Filed long ago" })
        XCTAssertTrue((old.outcome, old.reason) == (.suppressed, "too-old"), "a move keeps the arrival: \(old.reason)")
        var shown: [String] = []
        try coordinator.deliverPending(post: { shown.append($0.decision.emailID); return true }, withdraw: { _, _ in true })
        XCTAssertEqual(shown, [posted.emailID])

        // New mail posted in the Inbox, moved to Projects (no copy of it left where it was posted), then back.
        try append(c, "direct", subject: "Straight to the Inbox")
        let direct = try syncAndDecide(coordinator)
        XCTAssertEqual(direct.map(\.outcome), [.posted])
        try coordinator.deliverPending(post: { shown.append($0.decision.emailID); return true }, withdraw: { _, _ in true })
        XCTAssertEqual(shown.count, 2)
        _ = try c.uidMove(try uids(.inbox, "direct"), to: projects)
        XCTAssertEqual(try syncAndDecide(coordinator), [], "a posted message moved out is not decided again")
        _ = try c.uidMove(try uids(projects, "direct"), to: .inbox)
        XCTAssertEqual(try syncAndDecide(coordinator), [], "posted once: back in the Inbox it is not decided again")
        try coordinator.deliverPending(post: { shown.append($0.decision.emailID); return true }, withdraw: { _, _ in true })
        XCTAssertEqual(shown.count, 2, "never shown twice")
    }

    /// Each `sync --watch` session's first sync suppresses what it finds (`session-start`: the spec's first launch),
    /// not only the account's first: mail that came while no watch ran does not flood when it starts. Mail after that
    /// first sync posts (also when the first sync found nothing new), and `--notify-on-start` decides the first sync's
    /// mail as usual.
    func testEachWatchSessionStartsSuppressed() throws {
        let c = try server()
        defer { c.logout() }
        try seedAndAddAccountByCLI(via: c)
        func watch(_ extra: [String] = []) throws -> Process {
            try startSync(["--watch", "--account", accountName, "--idle-refresh", "2"] + extra)
        }
        func stop(_ p: Process) {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        func decided(_ prefix: String) throws -> [NotificationRecord] { try decisions().filter { $0.decision.subtitle.hasPrefix(prefix) } }
        var p = try watch()
        XCTAssertTrue(try waitFor { try self.decisions().count >= 1 }, "the first sync was decided")
        stop(p)

        for i in 0..<15 { try append(c, "away\(i)", subject: "Away \(i)") }
        p = try watch()
        XCTAssertTrue(try waitFor { try decided("Away").count == 15 }, "what came while stopped was decided")
        let away = try decided("Away")
        XCTAssertTrue(away.allSatisfy { $0.decision.outcome == .suppressed && $0.decision.reason == "session-start" },
                      "\(away.map { ($0.decision.outcome, $0.decision.reason) })")
        try append(c, "during", subject: "During the session")
        XCTAssertTrue(try waitFor { try decided("During").count == 1 })
        XCTAssertEqual(try decided("During").first?.decision.outcome, .posted)
        stop(p)

        // A session whose first sync finds nothing new: the next mail posts.
        p = try watch()
        usleep(4_000_000)
        try append(c, "quiet", subject: "After a quiet start")
        XCTAssertTrue(try waitFor { try decided("After a quiet start").count == 1 })
        XCTAssertEqual(try decided("After a quiet start").first?.decision.outcome, .posted)
        stop(p)

        // --notify-on-start: the first sync's mail is decided as any other (recency still applies).
        try append(c, "restart", subject: "Restarted by a supervisor")
        p = try watch(["--notify-on-start"])
        defer { stop(p) }
        XCTAssertTrue(try waitFor { try decided("Restarted").count == 1 })
        XCTAssertEqual(try decided("Restarted").first?.decision.outcome, .posted)
    }

    /// A notify command that hangs (each run killed after 10 s) runs on a thread of its own: mail that comes while it
    /// hangs is synced and decided within seconds. It had run on the watch's thread, every pending one in turn, so new
    /// mail waited for them all (three pending: about 30 s).
    func testAHangingNotifyCommandDoesNotDelayTheNextSync() throws {
        let c = try server()
        defer { c.logout() }
        try seedAndAddAccountByCLI(via: c)
        let started = dir.file("started")
        let p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "2",
                               "--notify-command", "cat > /dev/null; echo >> '\(started)'; exec sleep 12 > /dev/null 2>&1"])
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        XCTAssertTrue(try waitFor { try self.decisions().count >= 1 }, "the first sync was decided")
        for i in 0..<3 { try append(c, "slow\(i)", subject: "Slow \(i)") }
        XCTAssertTrue(try waitFor { FileManager.default.fileExists(atPath: started) }, "the notify command runs (and hangs)")
        let appended = Date()
        try append(c, "next", subject: "Next while hanging")
        XCTAssertTrue(try waitFor { try self.decisions().contains { $0.decision.subtitle == "Next while hanging" } }, "decided")
        let took = Date().timeIntervalSince(appended)
        XCTAssertLessThan(took, 8, "recorded and decided \(took) s after it came, while the notify command hung")
        XCTAssertEqual(try decisions().first { $0.decision.subtitle == "Next while hanging" }?.decision.outcome, .posted)
        XCTAssertFalse(try decisions().contains { $0.state == .delivered }, "none delivered: every run hangs")
    }

    func decisions() throws -> [NotificationRecord] {
        try NotificationCoordinator(store: try MailStore.open(at: dir.file("store"), readOnly: true)).recent(limit: 100)
    }

    func waitFor(_ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if try condition() { return true }
            usleep(200_000)
        }
        return false
    }

    /// The user's own mail reaching the Inbox (a list's copy of what they wrote, a note to self, mail from an alias whose
    /// mail is in Sent) posts no banner: `own-mail`; someone else's mail of the same sync is posted.
    func testTheUsersOwnMailInTheInboxPostsNoBanner() throws {
        let c = try server()
        defer { c.logout() }
        let coordinator = try seededCoordinator(via: c)
        // An alias: what it sent is in the Sent folder (the Sent copies are the user's, decided not-in-inbox).
        for i in 0..<2 { try append(c, "alias-sent\(i)", subject: "From my alias \(i)", from: "Me Too <me.too@example.net>", to: MailboxName("Sent")) }
        _ = try syncAndDecide(coordinator)
        try append(c, "self", subject: "Note to self", from: "Me <\(user!)>")
        try append(c, "alias-list", subject: "[list] my post", from: "Me Too <ME.TOO@example.net>")
        try append(c, "other", subject: "Hello", from: "John Doe <john@example.com>")
        let decided = Dictionary(try syncAndDecide(coordinator).map { ($0.subtitle, $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(decided["Note to self"]?.reason, "own-mail")
        XCTAssertEqual(decided["Note to self"]?.outcome, .suppressed)
        XCTAssertEqual(decided["[list] my post"]?.reason, "own-mail")
        XCTAssertEqual(decided["Hello"]?.outcome, .posted)
        XCTAssertEqual(try coordinator.pendingDeliveries().map(\.decision.subtitle), ["Hello"])
    }

    /// Seeds the Inbox with one message and adds the account through the CLI, the test's store closed first (the
    /// CLI's processes open it).
    private func seedAndAddAccountByCLI(via c: IMAPConnection) throws {
        try fill("INBOX", [(id: "seed", subject: "Seed", parent: nil, flags: [])], via: c)
        views = nil
        store = nil
        try mailstore(["account", "add", accountName, "--email", user!, "--host", imap.host, "--port", "\(imap.tlsPort)",
                       "--security", "tls", "--password-file", passwordFile!, "--ca-file", imap.caFile])
    }

    /// Seeds the Inbox with one message, adds the account and runs its first sync and decision (the account's first,
    /// which posts nothing), so the test's mail is decided as a later sync's; returns the coordinator.
    private func seededCoordinator(via c: IMAPConnection) throws -> NotificationCoordinator {
        try fill("INBOX", [(id: "seed", subject: "Seed", parent: nil, flags: [])], via: c)
        try addAccount()
        let coordinator = NotificationCoordinator(store: store)
        _ = try syncAndDecide(coordinator)
        return coordinator
    }
}
