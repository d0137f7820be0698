import EventLog
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// A watch against other processes on the same account.
final class WatchLockTests: SyncTestCase {
    /// A watch whose account another process keeps syncing past the lock's wait goes on after it (as after a lost
    /// connection): it had ended for good ("another mailstore process is running sync ...").
    func testAWatchOutwaitsAnotherProcessSyncingItsAccount() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "w0", subject: "Before", parent: nil, flags: [])], via: c)
        try addAccount()
        try sync()
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        engine.lockWaitSeconds = 0.5
        let other = try AccountLock(store: store.directory, kind: "sync", account: accountName, waitSeconds: 0)
        let watch = WatchRun(SyncWatcher(engine: engine, idleRefresh: 120, pollInterval: 1000))
        Thread.sleep(forTimeInterval: 2)
        XCTAssertNil(watch.failure.withLock { $0 }, "still watching")
        XCTAssertGreaterThan(watch.retries.withLock { $0 }, 0, "waiting for the other process")
        other.release()
        try fill("INBOX", [(id: "w1", subject: "After", parent: nil, flags: [])], via: c)
        var seen = false
        for _ in 0..<100 where !seen {
            Thread.sleep(forTimeInterval: 0.2)
            seen = try !views.copies(account: accountName, messageID: "w1@example.com").isEmpty
        }
        XCTAssertTrue(watch.stop(), "the watch stopped")
        XCTAssertNil(watch.failure.withLock { $0 })
        XCTAssertTrue(seen, "the watch synced the new mail once the other process was done")
        engine.disconnect()
    }
}

/// A `SyncWatcher` running on a thread of its own until `stop()`: its retries counted (and their waits kept), the error
/// that ended it kept.
final class WatchRun: @unchecked Sendable {
    let retries = Locked(0)
    let waits = Locked<[Double]>([])
    let failure = Locked<(any Error)?>(nil)
    private let stopping = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    init(_ watcher: SyncWatcher) {
        watcher.shouldStop = { [stopping] in stopping.withLock { $0 } }
        watcher.onRetry = { [retries, waits] _, wait, _ in
            retries.withLock { $0 += 1 }
            waits.withLock { $0.append(wait) }
        }
        nonisolated(unsafe) let running = watcher
        Thread { [failure, done] in
            do { try running.run() } catch { failure.withLock { $0 = error } }
            done.signal()
        }.start()
    }

    /// Asks the watch to stop; true when it ended within `seconds`.
    func stop(within seconds: Double = 30) -> Bool {
        stopping.withLock { $0 = true }
        return done.wait(timeout: .now() + seconds) == .success
    }
}
