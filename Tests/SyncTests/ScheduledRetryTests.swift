@testable import MailStore
import XCTest

/// Which messages given up as unfetchable an ordinary sync's pass tries again.
final class ScheduledRetryTests: XCTestCase {
    /// Those due, the earliest due first (then the lowest UID), at most `scheduledRetriesPerPass`; none before its time.
    func testAPassTriesAtMostTwoOfThoseDueTheEarliestFirst() {
        let day: Int64 = 86_400_000_000
        let now = Timestamp(microseconds: 10 * day)
        let given = [
            UnfetchableMessage(uid: 50, givenUpAt: Timestamp(microseconds: 9 * day)),          // due in 0: now
            UnfetchableMessage(uid: 40, givenUpAt: Timestamp(microseconds: 9 * day + 1)),      // not yet
            UnfetchableMessage(uid: 30, givenUpAt: Timestamp(microseconds: 2 * day), times: 4), // due at 9 days
            UnfetchableMessage(uid: 20, givenUpAt: Timestamp(microseconds: 5 * day)),          // due at 6 days
            UnfetchableMessage(uid: 10, givenUpAt: Timestamp(microseconds: 5 * day)),          // due at 6 days
        ]
        XCTAssertEqual(SyncEngine.scheduledRetriesPerPass, 2)
        XCTAssertEqual(SyncEngine.dueRetries(given, at: now).map(\.uid), [10, 20])
        XCTAssertEqual(SyncEngine.dueRetries(Array(given.prefix(3)), at: now).map(\.uid), [30, 50])
        XCTAssertEqual(SyncEngine.dueRetries([given[1]], at: now).map(\.uid), [])
    }
}
