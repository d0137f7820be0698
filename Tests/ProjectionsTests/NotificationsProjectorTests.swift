import EventModel
import Projections
import XCTest

/// The notifications view: preferences as events, decisions listed, delivery and withdrawal owed.
final class NotificationsProjectorTests: XCTestCase {
    func decided(_ id: String, thread: String = "T1", outcome: NotificationOutcome = .posted) -> DomainEvent {
        .notificationDecided(NotificationDecided(emailID: id, threadID: thread, outcome: outcome, reason: "passed",
                                                 syncTime: Timestamp(microseconds: 1), title: "t", subtitle: "s", body: "b", fromAddress: "a@b.c"))
    }

    func pref(_ change: NotificationPreference, _ value: String = "", _ q: QuietHours? = nil) -> DomainEvent {
        .notificationPreferenceChanged(NotificationPreferenceChanged(change: change, value: value, quietStart: q?.start ?? 0, quietEnd: q?.end ?? 0))
    }

    func reader(_ h: FoldHarness) -> NotificationsReader { NotificationsReader(h.snapshot) }

    // AC-N-14: defaults, every change an event, VIPs lowercased, reset.
    func testPreferences() throws {
        let h = FoldHarness(types: [NotificationsProjector.self])
        XCTAssertEqual(try reader(h).settings(), NotificationSettings())
        try h.fold([pref(.accountDisabled)], account: "work")
        try h.fold([pref(.categoryOff, "promotions"), pref(.quietHoursSet, "", QuietHours.preset), pref(.vipAdded, "John@Example.com"),
                    pref(.threadMuted, "T-123"), pref(.categoryOff, "no-such-category")], account: "")
        var s = try reader(h).settings()
        XCTAssertEqual(s.disabledAccounts, ["work"])
        XCTAssertEqual(s.disabledCategories, [.promotions])
        XCTAssertEqual(s.quietHours, QuietHours.preset)
        XCTAssertEqual(s.vips, ["john@example.com"])
        XCTAssertEqual(s.mutedThreads, ["T-123"])
        try h.fold([pref(.vipRemoved, "JOHN@example.com"), pref(.threadUnmuted, "T-123"), pref(.quietHoursCleared), pref(.categoryOn, "promotions")], account: "")
        try h.fold([pref(.accountEnabled)], account: "work")
        XCTAssertEqual(try reader(h).settings(), NotificationSettings())
        try h.fold([pref(.vipAdded, "x@y.z"), pref(.accountDisabled)], account: "home")
        XCTAssertNotEqual(try reader(h).settings(), NotificationSettings())
        try h.fold([pref(.reset)], account: "")
        s = try reader(h).settings()
        XCTAssertEqual(s, NotificationSettings())
    }

    func testDecisionsListedNewestFirstAndPendingDelivery() throws {
        let h = FoldHarness(types: [NotificationsProjector.self])
        try h.fold([decided("e1"), decided("e2", outcome: .suppressed), decided("e3", thread: "T2")], account: "work")
        try h.fold([decided("e4")], account: "home")
        try h.fold([decided("e1", outcome: .suppressed)], account: "work")  // a second decision for e1 is ignored
        XCTAssertEqual(try reader(h).recent().map(\.decision.emailID), ["e4", "e3", "e2", "e1"])
        XCTAssertEqual(try reader(h).recent(account: "work").map(\.decision.emailID), ["e3", "e2", "e1"])
        XCTAssertEqual(try reader(h).recent(limit: 2).count, 2)
        XCTAssertEqual(try reader(h).lastDecidedSequence(account: "work"), 5)
        XCTAssertEqual(try reader(h).lastDecidedSequence(account: "home"), 4)
        XCTAssertNil(try reader(h).lastDecidedSequence(account: "other"))
        XCTAssertEqual(try reader(h).record(emailID: "e1")?.decision.outcome, .posted)
        XCTAssertEqual(try reader(h).pendingDeliveries().map(\.decision.emailID), ["e1", "e3", "e4"])
        try h.fold([.notificationDelivered(NotificationDelivered(emailID: "e1"))], account: "work")
        XCTAssertEqual(try reader(h).pendingDeliveries().map(\.decision.emailID), ["e3", "e4"])
        XCTAssertEqual(try reader(h).record(emailID: "e1")?.state, .delivered)
        XCTAssertEqual(try reader(h).showing(threadID: "T1"), ["e1"])
        // Delivered twice (a crash after posting, before recording, then a retry) stays one.
        try h.fold([.notificationDelivered(NotificationDelivered(emailID: "e1"))], account: "work")
        XCTAssertEqual(try reader(h).showing(threadID: "T1"), ["e1"])
    }

    // AC-N-11, E-21 style: reading, archiving, deleting or muting a thread owes a withdrawal of what shows.
    func testWithdrawalOwed() throws {
        let h = FoldHarness(types: [NotificationsProjector.self])
        try h.fold([decided("e1"), decided("e2"), decided("e3", thread: "T2"), decided("e4", thread: "T3"), decided("e5", thread: "T4")], account: "work")
        try h.fold(["e1", "e2", "e3", "e4", "e5"].map { .notificationDelivered(NotificationDelivered(emailID: $0)) }, account: "work")
        XCTAssertTrue(try reader(h).pendingWithdrawals().isEmpty)
        let read = ThreadAction(threadIDs: ["T1"], targets: [])
        try h.fold([.threadMarkedRead(read)], account: "work")
        try h.fold([.flagsChanged(FlagsChanged(emailID: "e3", folder: "INBOX", flags: ["\\Seen"], added: ["\\Seen"], removed: [], modSeq: 2))], account: "work")
        try h.fold([.emailExpunged(EmailExpunged(emailID: "e4", folder: "INBOX", uid: 4))], account: "work")
        try h.fold([pref(.threadMuted, "T4")], account: "")
        let owed = Dictionary(uniqueKeysWithValues: try reader(h).pendingWithdrawals().map { ($0.threadID, $0.withdrawal) })
        XCTAssertEqual(owed["T1"], PendingWithdrawal(emailIDs: ["e1", "e2"], reason: "read"))
        XCTAssertEqual(owed["T2"], PendingWithdrawal(emailIDs: ["e3"], reason: "read"))
        XCTAssertEqual(owed["T3"], PendingWithdrawal(emailIDs: ["e4"], reason: "deleted"))
        XCTAssertEqual(owed["T4"], PendingWithdrawal(emailIDs: ["e5"], reason: "muted"))
        try h.fold([.notificationWithdrawn(NotificationWithdrawn(emailIDs: ["e1", "e2"], threadID: "T1", reason: "read"))], account: "work")
        XCTAssertNil(try reader(h).pendingWithdrawals().first { $0.threadID == "T1" })
        XCTAssertTrue(try reader(h).showing(threadID: "T1").isEmpty)
        XCTAssertEqual(try reader(h).record(emailID: "e1")?.state, .withdrawn)
        // Reading a thread with nothing showing owes nothing.
        try h.fold([.threadMarkedRead(read)], account: "work")
        XCTAssertNil(try reader(h).pendingWithdrawals().first { $0.threadID == "T1" })
    }

    // A thread read before its posted notification was delivered: the banner is dropped, never shown.
    func testReadBeforeDeliveryDropsThePendingBanner() throws {
        let h = FoldHarness(types: [NotificationsProjector.self])
        try h.fold([decided("e1"), decided("e2", thread: "T2")], account: "work")
        try h.fold([.threadMarkedRead(ThreadAction(threadIDs: ["T1"], targets: []))], account: "work")
        XCTAssertEqual(try reader(h).pendingDeliveries().map(\.decision.emailID), ["e2"])
        XCTAssertEqual(try reader(h).record(emailID: "e1")?.state, .withdrawn)
        XCTAssertTrue(try reader(h).pendingWithdrawals().isEmpty)
        try h.fold([.notificationDelivered(NotificationDelivered(emailID: "e1"))], account: "work")
        XCTAssertEqual(try reader(h).record(emailID: "e1")?.state, .withdrawn, "a late delivery record does not revive it")
    }

    // Batch sizes do not matter (the projector contract).
    func testSameTablesWhateverTheBatches() throws {
        let events: [DomainEvent] = [pref(.vipAdded, "a@b.c"), decided("e1"), .notificationDelivered(NotificationDelivered(emailID: "e1")),
                                     decided("e2"), .threadArchived(ThreadAction(threadIDs: ["T1"], targets: [])), pref(.threadMuted, "T9")]
        let one = FoldHarness(types: [NotificationsProjector.self]), many = FoldHarness(types: [NotificationsProjector.self])
        try one.fold(events, account: "")
        for e in events { try many.fold([e], account: "") }
        for name in one.folds[0].context.tableNames {
            XCTAssertEqual(one.store.entries(name).map { $0.0 + [0xFF] + $0.1 }, many.store.entries(name).map { $0.0 + [0xFF] + $0.1 }, name)
        }
        XCTAssertFalse(one.store.entries("notifications.withdraw").isEmpty)
    }
}
