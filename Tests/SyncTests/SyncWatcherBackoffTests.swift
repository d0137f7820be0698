@testable import MailStore
import XCTest

/// `sync --watch` reconnects with backoff: 1 s doubling to 5 min while the server stays away, and from 1 s again once
/// a session got going (it had stayed doubled for good after one outage: single drops then waited 16, 32, 64 s).
final class SyncWatcherBackoffTests: XCTestCase {
    func testTheBackoffDoublesWhileFailingAndStartsAgainAfterASession() {
        var backoff = 1.0
        var waits: [Double] = []
        // An outage: four attempts fail before a session syncs.
        for _ in 0..<4 {
            let (wait, next) = SyncWatcher.backoff(after: backoff, sessionSynced: false)
            waits.append(wait)
            backoff = next
        }
        XCTAssertEqual(waits, [1, 2, 4, 8])
        // Then a session syncs and, later, drops: the wait is 1 s again, and doubles from there.
        var (wait, next) = SyncWatcher.backoff(after: backoff, sessionSynced: true)
        XCTAssertEqual(wait, 1)
        (wait, next) = SyncWatcher.backoff(after: next, sessionSynced: false)
        XCTAssertEqual(wait, 2)
        XCTAssertEqual(SyncWatcher.backoff(after: 300, sessionSynced: false).next, 300, "capped at 5 min")
    }
}
