import EventModel
import MailStore
import Projections
import XCTest

/// The write-back sends a message's actions in the order the user took them: an action waiting for its retry holds
/// back every later action on its emails (a star waiting after a lost connection, then an unstar, had gone out as
/// unstar then star, leaving the message starred), and a push of one action sends the older ones on its mail first.
final class WriteBackOrderTests: XCTestCase {
    let now = Timestamp(microseconds: 1_700_000_000_000_000)

    func action(_ n: UInt64, _ kind: ActionKind, _ emails: [String], retryIn seconds: Int64? = nil) -> ActionRecord {
        var r = ActionRecord(id: .generate(), account: "a", kind: kind, sequence: n, occurredAt: now, threadIDs: ["t\(n)"],
                             targets: emails.map { ActionTarget(emailID: $0, folder: "INBOX", flags: []) }, destination: nil, causation: nil)
        r.retryAt = seconds.map { Timestamp(microseconds: now.microseconds + $0 * 1_000_000) }
        return r
    }

    func testALaterActionOnTheSameMailWaitsForTheOneWaitingBeforeIt() {
        let star = action(1, .star, ["e1"], retryIn: 30)
        let unstar = action(2, .unstar, ["e1"])
        let other = action(3, .read, ["e2"])
        let both = action(4, .read, ["e2", "e1"])
        let due = SyncEngine.due([star, unstar, other, both], force: [], now: now)
        XCTAssertEqual(due.map(\.sequence), [3], "the unstar and the read of e1 wait for the star; e2's own read goes")
        // Once the star's time has come, all go, oldest first.
        let later = SyncEngine.due([star, unstar, other, both], force: [], now: Timestamp(microseconds: now.microseconds + 31_000_000))
        XCTAssertEqual(later.map(\.sequence), [1, 2, 3, 4])
    }

    func testAPushSendsTheOlderActionsOnItsMailFirst() {
        let star = action(1, .star, ["e1"], retryIn: 30)
        let unrelated = action(2, .archive, ["e9"], retryIn: 30)
        let unstar = action(3, .unstar, ["e1", "e2"], retryIn: 30)
        let read = action(4, .read, ["e2"], retryIn: 30)
        let due = SyncEngine.due([star, unrelated, unstar, read], force: [unstar.id.description], now: now)
        XCTAssertEqual(due.map(\.sequence), [1, 3], "the star before the unstar; the unrelated archive and the later read wait")
        XCTAssertTrue(SyncEngine.due([star, unrelated, unstar, read], force: [], now: now).isEmpty)
    }
}
