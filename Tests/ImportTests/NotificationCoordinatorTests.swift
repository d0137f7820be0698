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
