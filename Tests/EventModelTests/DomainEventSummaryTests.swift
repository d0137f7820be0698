@testable import EventModel
import XCTest

/// `mailstore log` and `history` print each event's one-line summary: counts of emails read as English.
final class DomainEventSummaryTests: XCTestCase {
    private func targets(_ n: Int) -> [ActionTarget] { (0..<n).map { ActionTarget(emailID: "e\($0)", folder: "INBOX", flags: []) } }

    func testOneEmailIsSingularAndSeveralArePlural() {
        let one = DomainEvent.threadStarred(ThreadAction(threadIDs: ["t1"], targets: targets(1)))
        XCTAssertEqual(one.summary, "thread t1, 1 email")
        let moved = DomainEvent.threadMoved(ThreadAction(threadIDs: ["t1", "t2"], targets: targets(3), destination: "Work"))
        XCTAssertEqual(moved.summary, "2 threads, 3 emails -> Work")
        let id = EventID.generate()
        XCTAssertEqual(DomainEvent.actionReverted(ActionReverted(actionID: id, targets: targets(1), reason: "NO")).summary,
                       "action \(id): 1 email restored (NO)")
        XCTAssertEqual(DomainEvent.actionApplied(ActionApplied(actionID: id, emailIDs: ["a", "b"])).summary, "action \(id) applied to 2 emails")
    }
}
