import CSQLite
import Dispatch
import Foundation

/// Interrupts a connection's running statement (`sqlite3_interrupt`) from a timer once a time has passed, and again
/// every `repeatMilliseconds` after, until it is disarmed.
///
/// Why a timer beside the progress handler: FTS5 can work for seconds inside one call (`"a a" OR "a ab" OR ...`
/// stepping to a first match that does not exist, 5.4 s at 1M) while the handler, called every N virtual machine
/// instructions, is not called for 2.4 s at a stretch; `sqlite3_interrupt` stops that call within milliseconds
/// (sqlite3's CLI on the 1M index: interrupted after 1 s, it returned at 1.015 s). Again and again, because an
/// interrupt that lands while no statement runs is forgotten by the next statement SQLite starts.
final class SQLiteInterrupter: @unchecked Sendable {
    /// How often an armed interrupter interrupts again once its time has passed.
    static let repeatMilliseconds = 20

    private let lock = NSLock()
    private var armed = true
    private let handle: OpaquePointer
    private let timer: DispatchSourceTimer

    /// Arms an interrupter of `handle` for `at` (`mailstore_monotonic_ns`): it must be disarmed before the
    /// connection closes.
    init(handle: OpaquePointer, at: UInt64) {
        self.handle = handle
        let now = mailstore_monotonic_ns()
        let delay = at > now ? min(at - now, UInt64(Int.max)) : 0
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .nanoseconds(Int(delay)), repeating: .milliseconds(Self.repeatMilliseconds),
                       leeway: .milliseconds(2))
        timer.setEventHandler { [self] in interrupt() }
        timer.resume()
    }

    private func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        if armed { sqlite3_interrupt(handle) }
    }

    /// Stops it: once this returns, it never interrupts again.
    func disarm() {
        lock.lock()
        armed = false
        lock.unlock()
        timer.cancel()
    }
}
