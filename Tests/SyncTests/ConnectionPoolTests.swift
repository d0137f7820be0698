import Foundation
import MailStore
import TestSupport
import XCTest

/// The connection pool's limits, queue and idle closing, with a fake connection: a pure concurrency test (the
/// pool never looks inside a connection). With real servers: ``MultiProviderSyncTests``.
final class ConnectionPoolTests: XCTestCase {
    /// A connection that only counts: how many are open at once per account, and whether it was closed.
    final class FakeConnection: PooledConnection, @unchecked Sendable {
        let id: Int
        private let lock = NSLock()
        private var _closed = false
        private var _broken = false
        private var _probeFails = false
        private var _unanswered = false

        /// What a probe left unanswered ends the connection with.
        struct Unanswered: Error {}

        init(id: Int) { self.id = id }

        var closed: Bool { lock.withLock { _closed } }
        func breakIt() { lock.withLock { _broken = true } }
        func failProbes() { lock.withLock { _probeFails = true } }
        /// Its probes fail as the server's silence would: ended by ``Unanswered``.
        func leaveProbesUnanswered() { lock.withLock { _probeFails = true; _unanswered = true } }
        var unansweredFailure: (any Error)? { lock.withLock { _unanswered ? Unanswered() : nil } }
        var isUsable: Bool { lock.withLock { !_broken && !_closed } }
        func probe() -> Bool { lock.withLock { !_probeFails } }
        func close() { lock.withLock { _closed = true } }
    }

    /// Opens fake connections and counts them.
    final class Factory: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var opened: [FakeConnection] = []

        func open() -> FakeConnection {
            lock.withLock {
                let c = FakeConnection(id: opened.count)
                opened.append(c)
                return c
            }
        }

        var count: Int { lock.withLock { opened.count } }
    }

    typealias Pool = ConnectionPool<FakeConnection>

    static let limits = Pool.Limits(maxConnections: 2, idleCloseSeconds: 60)
    var limits: Pool.Limits { Self.limits }

    func testALeaseBeyondTheAccountsLimitWaitsUntilOneIsReleased() throws {
        let pool = Pool(globalLimit: 30, queueTimeoutSeconds: 10)
        let factory = Factory()
        let a = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        _ = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        let released = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.4) {
            pool.release(a, account: "a", reuseKey: "k", limits: ConnectionPoolTests.limits)
        }
        let start = Date()
        let third = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.3, "queued until a connection came free")
        XCTAssertTrue(third === a, "the released connection is reused")
        XCTAssertEqual(factory.count, 2, "never more than the account's 2")
        XCTAssertEqual(pool.peakInUse(account: "a"), 2)
        XCTAssertLessThan(Date().timeIntervalSince(released), 5)
    }

    func testTheGlobalLimitHoldsAcrossAccountsAndAWaiterTimesOutWithAClearError() throws {
        let pool = Pool(globalLimit: 3, queueTimeoutSeconds: 0.5)
        let factory = Factory()
        let wide = Pool.Limits(maxConnections: 5, idleCloseSeconds: 60)
        for account in ["a", "a", "b"] { _ = try pool.lease(account: account, reuseKey: "k", limits: wide, open: factory.open) }
        let start = Date()
        XCTAssertThrowsError(try pool.lease(account: "c", reuseKey: "k", limits: wide, open: factory.open)) { error in
            guard let t = error as? ConnectionPoolTimeout else { return XCTFail("\(error)") }
            XCTAssertEqual(t.account, "c")
            XCTAssertEqual(t.totalInUse, 3)
            XCTAssertEqual(t.globalLimit, 3)
            XCTAssertEqual(t.accountLimit, 5)
            XCTAssertTrue(t.description.contains("try again"), t.description)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.45, "it waited the queue timeout first")
        XCTAssertEqual(factory.count, 3)
        XCTAssertEqual(pool.count().inUse, 3)
    }

    func testALeaseThatMayNotWaitFailsAtOnce() throws {
        let pool = Pool(globalLimit: 1, queueTimeoutSeconds: 30)
        let factory = Factory()
        _ = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        let start = Date()
        XCTAssertThrowsError(try pool.lease(account: "a", reuseKey: "other", limits: limits, waitSeconds: 0, open: factory.open)) {
            XCTAssertTrue($0 is ConnectionPoolTimeout, "\($0)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        XCTAssertEqual(pool.count().inUse, 1)
    }

    func testAWaiterForTheGlobalLimitGetsTheRoomOfAnotherAccountsRelease() throws {
        let pool = Pool(globalLimit: 2, queueTimeoutSeconds: 10)
        let factory = Factory()
        let a = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        _ = try pool.lease(account: "b", reuseKey: "k", limits: limits, open: factory.open)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            pool.release(a, account: "a", reuseKey: "k", limits: ConnectionPoolTests.limits)
        }
        let c = try pool.lease(account: "c", reuseKey: "k", limits: limits, open: factory.open)
        XCTAssertTrue(a.closed, "the idle connection of a was closed to make room for c")
        XCTAssertFalse(c === a)
        XCTAssertEqual([pool.count().inUse, pool.count().idle], [2, 0])
        XCTAssertEqual(pool.peakInUse(), 2)
    }

    /// Waiters for the process's room are served first come, first served.
    func testWaitersAreServedInArrivalOrder() throws {
        let pool = Pool(globalLimit: 1, queueTimeoutSeconds: 10)
        let factory = Factory()
        let held = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        let order = InUseCounter()
        let served = Locked<[String]>([])
        let group = DispatchGroup()
        for (i, account) in ["b", "c", "d"].enumerated() {
            group.enter()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1 * Double(i)) {
                defer { group.leave() }
                guard let c = try? pool.lease(account: account, reuseKey: "k", limits: ConnectionPoolTests.limits, open: factory.open) else { return }
                order.enter(account)
                served.withLock { $0.append(account) }
                usleep(50_000)
                order.leave(account)
                pool.release(c, account: account, reuseKey: "k", limits: ConnectionPoolTests.limits)
            }
        }
        Thread.sleep(forTimeInterval: 0.5)
        pool.release(held, account: "a", reuseKey: "k", limits: limits)
        XCTAssertEqual(group.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(served.withLock { $0 }, ["b", "c", "d"])
        XCTAssertEqual(order.peakTotal, 1)
    }

    /// A waiter held back by its own account's limit does not hold back another account that has room.
    func testAWaiterAtItsAccountsLimitDoesNotBlockOtherAccounts() throws {
        let pool = Pool(globalLimit: 10, queueTimeoutSeconds: 10)
        let factory = Factory()
        let one = Pool.Limits(maxConnections: 1, idleCloseSeconds: 60)
        let held = try pool.lease(account: "a", reuseKey: "k", limits: one, open: factory.open)
        let aServed = Locked<Date?>(nil)
        let group = DispatchGroup()
        group.enter()
        Thread {
            defer { group.leave() }
            if let c = try? pool.lease(account: "a", reuseKey: "k", limits: one, open: factory.open) {
                aServed.withLock { $0 = Date() }
                pool.release(c, account: "a", reuseKey: "k", limits: one)
            }
        }.start()
        Thread.sleep(forTimeInterval: 0.2)
        let start = Date()
        _ = try pool.lease(account: "b", reuseKey: "k", limits: one, open: factory.open)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "b did not wait behind a")
        XCTAssertNil(aServed.withLock { $0 })
        pool.release(held, account: "a", reuseKey: "k", limits: one)
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertNotNil(aServed.withLock { $0 })
    }

    func testIdleConnectionsAreClosedAfterTheirIdleTime() throws {
        let pool = Pool()
        let factory = Factory()
        let short = Pool.Limits(maxConnections: 2, idleCloseSeconds: 0.2)
        let a = try pool.lease(account: "a", reuseKey: "k", limits: short, open: factory.open)
        pool.release(a, account: "a", reuseKey: "k", limits: short)
        XCTAssertEqual(pool.count(account: "a").idle, 1)
        XCTAssertEqual(pool.closeExpired(), 0)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(pool.closeExpired(), 1)
        XCTAssertTrue(a.closed)
        XCTAssertEqual(pool.count(account: "a").idle, 0)
        // A new lease opens a new one.
        let b = try pool.lease(account: "a", reuseKey: "k", limits: short, open: factory.open)
        XCTAssertFalse(a === b)
        pool.release(b, account: "a", reuseKey: "k", limits: short)
        XCTAssertEqual(pool.closeIdle(), 1)
        XCTAssertTrue(b.closed)
    }

    func testABrokenConnectionIsClosedNotKeptAndOneFailingItsProbeIsReplaced() throws {
        let pool = Pool(probeAfterSeconds: 0)
        let factory = Factory()
        let a = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        a.breakIt()
        pool.release(a, account: "a", reuseKey: "k", limits: limits)
        XCTAssertTrue(a.closed)
        XCTAssertEqual([pool.count().inUse, pool.count().idle], [0, 0])
        let b = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        pool.release(b, account: "a", reuseKey: "k", limits: limits)
        b.failProbes()
        let c = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        XCTAssertFalse(c === b, "the silent connection was not handed out")
        XCTAssertTrue(b.closed)
        XCTAssertEqual([pool.count(account: "a").inUse, pool.count(account: "a").idle], [1, 0])
    }

    /// An idle connection whose probe the server left unanswered for the connection's timeout: the lease throws that
    /// error and opens no other connection (to a server that stopped answering, a new one's opening had waited as long
    /// again: a watch's poll held for twice --timeout), giving the room back; the next lease opens a new one.
    func testALeaseWhoseProbeWentUnansweredOpensNoOtherConnection() throws {
        let pool = Pool(probeAfterSeconds: 0)
        let factory = Factory()
        let a = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        pool.release(a, account: "a", reuseKey: "k", limits: limits)
        a.leaveProbesUnanswered()
        XCTAssertThrowsError(try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)) { error in
            XCTAssertTrue(error is FakeConnection.Unanswered, "\(error)")
        }
        XCTAssertEqual(factory.count, 1, "no connection opened after the unanswered probe")
        XCTAssertTrue(a.closed)
        XCTAssertEqual([pool.count(account: "a").inUse, pool.count(account: "a").idle], [0, 0])
        let b = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: factory.open)
        XCTAssertFalse(a === b)
        XCTAssertEqual(factory.count, 2)
    }

    func testAConnectionOfOtherSettingsIsNotReusedButMakesRoom() throws {
        let pool = Pool()
        let factory = Factory()
        let one = Pool.Limits(maxConnections: 1, idleCloseSeconds: 60)
        let a = try pool.lease(account: "a", reuseKey: "old password", limits: one, open: factory.open)
        pool.release(a, account: "a", reuseKey: "old password", limits: one)
        let b = try pool.lease(account: "a", reuseKey: "new password", limits: one, open: factory.open)
        XCTAssertFalse(a === b)
        XCTAssertTrue(a.closed)
    }

    func testAFailedOpenFreesItsRoom() throws {
        struct Refused: Error {}
        let pool = Pool(globalLimit: 1, queueTimeoutSeconds: 0.2)
        XCTAssertThrowsError(try pool.lease(account: "a", reuseKey: "k", limits: limits) { throw Refused() }) { XCTAssertTrue($0 is Refused) }
        XCTAssertEqual([pool.count().inUse, pool.count().idle], [0, 0])
        _ = try pool.lease(account: "a", reuseKey: "k", limits: limits, open: Factory().open)
    }

    /// Many threads leasing for three accounts at once: neither limit is ever passed, nothing is lost.
    func testConcurrentLeasesNeverPassEitherLimit() throws {
        let pool = Pool(globalLimit: 4, queueTimeoutSeconds: 20)
        let factory = Factory()
        let inUse = InUseCounter()
        let group = DispatchGroup()
        let failures = InUseCounter()
        for t in 0..<9 {
            group.enter()
            Thread {
                defer { group.leave() }
                let account = ["a", "b", "c"][t % 3]
                for _ in 0..<40 {
                    do {
                        let c = try pool.lease(account: account, reuseKey: "k", limits: ConnectionPoolTests.limits, open: factory.open)
                        inUse.enter(account)
                        usleep(UInt32.random(in: 0...2000))
                        inUse.leave(account)
                        pool.release(c, account: account, reuseKey: "k", limits: ConnectionPoolTests.limits)
                    } catch {
                        failures.enter("\(error)")
                    }
                }
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(failures.peak.values.reduce(0, +), 0, "no lease timed out")
        XCTAssertLessThanOrEqual(inUse.peakTotal, 4)
        for account in ["a", "b", "c"] { XCTAssertLessThanOrEqual(inUse.peak[account, default: 0], 2, account) }
        XCTAssertLessThanOrEqual(pool.peakInUse(), 4)
        XCTAssertEqual(pool.count().inUse, 0)
        XCTAssertLessThanOrEqual(factory.opened.filter { !$0.closed }.count, 4, "open connections stay within the global limit")
    }

    /// Counts what is in use at once, per key.
    final class InUseCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var now: [String: Int] = [:]
        private var total = 0
        private(set) var peak: [String: Int] = [:]
        private(set) var peakTotal = 0

        func enter(_ key: String) {
            lock.withLock {
                now[key, default: 0] += 1
                total += 1
                peak[key] = max(peak[key, default: 0], now[key]!)
                peakTotal = max(peakTotal, total)
            }
        }

        func leave(_ key: String) {
            lock.withLock {
                now[key, default: 0] -= 1
                total -= 1
            }
        }
    }
}
