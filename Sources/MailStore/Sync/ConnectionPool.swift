import Foundation
import SecureTransport

/// The bounded set of server connections of one process (spec AC-MP-13, NFR-MPROV-07).
///
/// - Each account holds at most its `maxConnections` (the provider registry's: 5 for every built-in
///   provider and for custom servers), in use and idle together.
/// - The process holds at most ``globalLimit`` (30) across all accounts.
/// - A lease that finds no room waits (queued, not failed) until a connection is released, an idle one can be
///   closed to make room, or ``queueTimeoutSeconds`` (30 s) pass; then it throws ``ConnectionPoolTimeout``, which
///   says what to do. Waiters are served first come, first served among those that could go on (one held back by
///   its own account's limit does not hold back another account).
/// - A released connection that still works stays idle for reuse by the same account and settings; idle
///   connections are closed after the lease's `idleCloseSeconds` (the engine uses 15 minutes, the desktop value of
///   FR-SYNC-16, or the provider's IDLE refresh when that is shorter: a provider dropping an IDLE after 5 minutes
///   drops a silent connection as soon), when another account needs the room, or by ``closeIdle()``. One idle for
///   longer than ``probeAfterSeconds`` (10 s) is checked (`NOOP`) before it is handed out again; one that fails the
///   check is replaced by a new connection, unless the server left the check unanswered for the connection's timeout:
///   the lease then throws that error (a server that stopped answering would hold a new connection's opening as long).
///
/// Connections are opened and closed outside the pool's lock, so a slow server never holds up the others.
/// Blocking by design: the sync engine is synchronous and runs on its own threads.
package final class ConnectionPool<Connection: PooledConnection>: @unchecked Sendable {
    /// What a lease of one account allows.
    package struct Limits: Sendable, Equatable {
        /// The most connections the account may hold, in use and idle.
        package var maxConnections: Int
        /// How long a released connection may stay idle before it is closed (seconds).
        package var idleCloseSeconds: Double

        package init(maxConnections: Int, idleCloseSeconds: Double) {
            self.maxConnections = max(1, maxConnections)
            self.idleCloseSeconds = max(0, idleCloseSeconds)
        }
    }

    /// The most connections across all accounts.
    package let globalLimit: Int
    /// How long a lease waits for room before it fails.
    package let queueTimeoutSeconds: Double
    /// An idle connection older than this is probed before reuse.
    package let probeAfterSeconds: Double

    private struct IdleEntry {
        let connection: Connection
        let account: String
        let reuseKey: String
        let since: Double
        let closeAfter: Double
    }

    /// A lease waiting for room, in arrival order.
    private struct Waiter {
        let ticket: UInt64
        let account: String
        let reuseKey: String
        let limit: Int
    }

    /// Its timed waits on the monotonic clock (``MonotonicCondition``): on `NSCondition`'s wall clock a clock stepped
    /// back during one held the lease for the step, past its timeout.
    private let condition = MonotonicCondition()
    private var idle: [IdleEntry] = []
    private var waiters: [Waiter] = []
    private var nextTicket: UInt64 = 0
    private var busy: [String: Int] = [:]
    private var busyTotal = 0
    private var peakTotal = 0
    private var peakByAccount: [String: Int] = [:]

    /// A pool with these bounds (the defaults are the spec's).
    package init(globalLimit: Int = 30, queueTimeoutSeconds: Double = 30, probeAfterSeconds: Double = 10) {
        self.globalLimit = max(1, globalLimit)
        self.queueTimeoutSeconds = max(0, queueTimeoutSeconds)
        self.probeAfterSeconds = max(0, probeAfterSeconds)
    }

    /// A connection for `account`: an idle one opened with the same `reuseKey` (the server, user and settings), or
    /// a new one from `open` once the limits allow. Waits up to `waitSeconds` (nil: ``queueTimeoutSeconds``) for
    /// room, then throws ``ConnectionPoolTimeout``; errors from `open`, and an idle connection's
    /// ``PooledConnection/unansweredFailure`` after its probe, are passed on (and free the room). Give it back
    /// with ``release(_:account:reuseKey:limits:keep:)``.
    package func lease(account: String, reuseKey: String, limits: Limits, waitSeconds: Double? = nil,
                       open: () throws -> Connection) throws -> Connection {
        let start = ConnectionPool.clock()
        let timeout = max(0, min(waitSeconds ?? queueTimeoutSeconds, queueTimeoutSeconds))
        var reused: IdleEntry?
        do {
            var toClose: [Connection] = []
            condition.lock()
            let me = Waiter(ticket: nextTicket, account: account, reuseKey: reuseKey, limit: limits.maxConnections)
            nextTicket &+= 1
            waiters.append(me)
            defer {
                // Leaving the queue may make a later waiter the first that can go on.
                waiters.removeAll { $0.ticket == me.ticket }
                condition.broadcast()
                condition.unlock()
                toClose.forEach { $0.close() }
            }
            while true {
                toClose += expiredLocked(now: ConnectionPool.clock())
                // First come, first served among the waiters that can go on now.
                if waiters.first(where: canProceedLocked)?.ticket == me.ticket {
                    toClose += takeRoomLocked(for: me, reused: &reused)
                    break
                }
                let waited = ConnectionPool.clock() - start
                if waited >= timeout {
                    throw ConnectionPoolTimeout(account: account, waitedSeconds: waited, accountInUse: accountCountLocked(account),
                                                accountLimit: limits.maxConnections, totalInUse: busyTotal + idle.count,
                                                globalLimit: globalLimit)
                }
                // Woken by every release; re-checks at least every second (idle connections expire meanwhile).
                condition.wait(until: Deadline(secondsFromNow: min(1, timeout - waited)))
            }
        }
        return try connect(reused, account: account, open: open)
    }

    /// The idle connection if it still works (checked with a probe after ``probeAfterSeconds``), else a new one.
    private func connect(_ reused: IdleEntry?, account: String, open: () throws -> Connection) throws -> Connection {
        if let reused {
            if reused.connection.isUsable,
               ConnectionPool.clock() - reused.since < probeAfterSeconds || reused.connection.probe() {
                return reused.connection
            }
            reused.connection.close()
        }
        do {
            // A probe the server left unanswered for the connection's whole timeout: a new connection to it would most
            // likely wait as long (a server frozen whole held a watch's poll twice `--timeout`); the lease fails now.
            if let unanswered = reused?.connection.unansweredFailure { throw unanswered }
            return try open()
        } catch {
            condition.withLock {
                unreserveLocked(account)
                condition.broadcast()
            }
            throw error
        }
    }

    /// Gives back a leased connection: kept idle for reuse when `keep` and it still works, else closed.
    package func release(_ connection: Connection, account: String, reuseKey: String, limits: Limits, keep: Bool = true) {
        let keepIt = keep && connection.isUsable
        let expired: [Connection] = condition.withLock {
            unreserveLocked(account)
            if keepIt {
                idle.append(IdleEntry(connection: connection, account: account, reuseKey: reuseKey, since: ConnectionPool.clock(),
                                      closeAfter: limits.idleCloseSeconds))
            }
            condition.broadcast()
            return expiredLocked(now: ConnectionPool.clock())
        }
        if !keepIt { connection.close() }
        expired.forEach { $0.close() }
    }

    /// Closes the idle connections whose idle time is over; returns how many. (Leases and releases do it too.)
    @discardableResult
    package func closeExpired() -> Int {
        let expired = condition.withLock { expiredLocked(now: ConnectionPool.clock()) }
        expired.forEach { $0.close() }
        return expired.count
    }

    /// Closes every idle connection (e.g. when a command is done with the servers); returns how many.
    @discardableResult
    package func closeIdle() -> Int {
        let all: [IdleEntry] = condition.withLock {
            defer { idle = [] }
            return idle
        }
        all.forEach { $0.connection.close() }
        return all.count
    }

    /// Connections in use and idle, of `account` or (nil) of the whole process.
    package func count(account: String? = nil) -> (inUse: Int, idle: Int) {
        condition.withLock {
            guard let account else { return (busyTotal, idle.count) }
            return (busy[account, default: 0], idle.count { $0.account == account })
        }
    }

    /// The most connections that were in use at once, of `account` or (nil) of the whole process.
    package func peakInUse(account: String? = nil) -> Int {
        condition.withLock { account.map { peakByAccount[$0, default: 0] } ?? peakTotal }
    }

    private func accountCountLocked(_ account: String) -> Int {
        busy[account, default: 0] + idle.count { $0.account == account }
    }

    /// Whether `w` could have a connection now: an idle one of its own, or room under both limits (closing an idle
    /// one of its account with other settings, or of another account when the process is full).
    private func canProceedLocked(_ w: Waiter) -> Bool {
        if idle.contains(where: { $0.account == w.account && $0.reuseKey == w.reuseKey }) { return true }
        if accountCountLocked(w.account) >= w.limit { return idle.contains { $0.account == w.account } }
        return busyTotal + idle.count < globalLimit || !idle.isEmpty
    }

    /// Reserves a connection for `w` (which ``canProceedLocked(_:)`` allows); returns the idle connections to close.
    private func takeRoomLocked(for w: Waiter, reused: inout IdleEntry?) -> [Connection] {
        var evicted: [Connection] = []
        if let i = idle.lastIndex(where: { $0.account == w.account && $0.reuseKey == w.reuseKey }) {
            reused = idle.remove(at: i)
        } else if accountCountLocked(w.account) >= w.limit, let i = idle.firstIndex(where: { $0.account == w.account }) {
            // The account's room is taken by an idle connection of other settings.
            evicted.append(idle.remove(at: i).connection)
        } else if busyTotal + idle.count >= globalLimit, let i = idle.indices.min(by: { idle[$0].since < idle[$1].since }) {
            // The process is full, but a connection nobody uses makes room.
            evicted.append(idle.remove(at: i).connection)
        }
        reserveLocked(w.account)
        return evicted
    }

    private func reserveLocked(_ account: String) {
        busy[account, default: 0] += 1
        busyTotal += 1
        peakTotal = max(peakTotal, busyTotal)
        peakByAccount[account] = max(peakByAccount[account, default: 0], busy[account, default: 0])
    }

    private func unreserveLocked(_ account: String) {
        busy[account, default: 0] = max(0, busy[account, default: 0] - 1)
        if busy[account] == 0 { busy[account] = nil }
        busyTotal = max(0, busyTotal - 1)
    }

    /// Removes and returns the idle connections whose time is over (closed by the caller, outside the lock).
    private func expiredLocked(now: Double) -> [Connection] {
        var out: [Connection] = []
        idle.removeAll { e in
            let over = now - e.since >= e.closeAfter || !e.connection.isUsable
            if over { out.append(e.connection) }
            return over
        }
        return out
    }

    /// Seconds on a clock that only moves forward.
    private static func clock() -> Double { ProcessInfo.processInfo.systemUptime }
}
