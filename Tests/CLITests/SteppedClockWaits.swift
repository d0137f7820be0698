import Foundation
import MailStore
import TestSupport
import XCTest

/// The waits of `ConnectionPool` and `DeliveryWorker` (on a condition, woken by it or a second at a time at most) with
/// the wall clock stepped an hour ahead during them. Run by
/// `ClockStepTests.testThePoolsAndTheDeliveryWorkersWaitsHoldThoughTheClockStepped` in a child process of this test
/// bundle under its `WallClockShim` (`MAILSTORE_TEST_CLOCK_CHILD=1`); skipped otherwise. Each wait is measured here
/// on the monotonic clock.
final class SteppedClockWaits: XCTestCase {
    /// A connection that is only held.
    private final class Held: PooledConnection, @unchecked Sendable {
        var isUsable: Bool { true }
        func probe() -> Bool { true }
        func close() {}
    }

    /// The shim's step file, the clock not stepped; skips the test when not run by `ClockStepTests`.
    private func stepFile() throws -> String {
        let env = ProcessInfo.processInfo.environment
        guard env["MAILSTORE_TEST_CLOCK_CHILD"] == "1", let file = env["MAILSTORE_TEST_CLOCK_STEP_FILE"] else {
            throw XCTSkip("run by ClockStepTests under its clock shim")
        }
        try Data("0\n".utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        return file
    }

    /// Steps the wall clock an hour ahead half a second from now, on another thread (the shim reads the file at every
    /// call), while the caller waits.
    private func stepAheadSoon(_ file: String) {
        Thread.detachNewThread {
            usleep(500_000)
            try? Data("3600\n".utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        }
    }

    private func uptime() -> Double { ProcessInfo.processInfo.systemUptime }

    /// A lease finding no room gives up after the 3 s it was given, the clock stepped during its wait.
    func testAPoolLeaseWaitsItsOwnTime() throws {
        let file = try stepFile()
        typealias Pool = ConnectionPool<Held>
        let pool = Pool(globalLimit: 1, queueTimeoutSeconds: 30)
        let limits = Pool.Limits(maxConnections: 1, idleCloseSeconds: 60)
        let held = try pool.lease(account: "a", reuseKey: "k", limits: limits) { Held() }
        stepAheadSoon(file)
        let start = uptime()
        XCTAssertThrowsError(try pool.lease(account: "a", reuseKey: "k", limits: limits, waitSeconds: 3) { Held() }) {
            XCTAssertTrue($0 is ConnectionPoolTimeout, "\($0)")
        }
        let waited = uptime() - start
        XCTAssertGreaterThanOrEqual(waited, 2.9)
        XCTAssertLessThan(waited, 10, "the wait is its 3 s, not the step")
        pool.release(held, account: "a", reuseKey: "k", limits: limits, keep: false)
    }

    /// `waitIdle(seconds:)` and `finish(seconds:)` return after their 3 s while a pass still runs, the clock stepped
    /// during the first.
    func testADeliveryWorkersWaitsHoldTheirTime() throws {
        let file = try stepFile()
        let release = DispatchSemaphore(value: 0)
        let worker = DeliveryWorker(name: "stepped") { release.wait() }
        defer { release.signal() }
        worker.ask()
        stepAheadSoon(file)
        var start = uptime()
        XCTAssertFalse(worker.waitIdle(seconds: 3), "a pass still runs")
        var waited = uptime() - start
        XCTAssertGreaterThanOrEqual(waited, 2.9)
        XCTAssertLessThan(waited, 10, "waitIdle waits its 3 s, not the step")
        start = uptime()
        XCTAssertFalse(worker.finish(seconds: 3), "a pass still runs")
        waited = uptime() - start
        XCTAssertGreaterThanOrEqual(waited, 2.9)
        XCTAssertLessThan(waited, 10, "finish waits its 3 s, not the step")
        release.signal()
        XCTAssertTrue(Poll.until(seconds: 10) { worker.hasEnded })
    }
}
