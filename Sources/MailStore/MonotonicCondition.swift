#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SecureTransport

/// A lock with a condition whose timed waits end at a ``Deadline``, on the monotonic clock (a `pthread_cond_t` set to
/// `CLOCK_MONOTONIC`). `NSCondition.wait(until:)` sleeps until a wall-clock date: a wall clock stepped back during the
/// wait stretched it by the step (an hour's step, an hour), one stepped forward cut it short.
///
/// The lock is not recursive. Every wait may also end spuriously: callers wait in a loop on what they wait for.
final class MonotonicCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        cond = .allocate(capacity: 1)
        var attr = pthread_condattr_t()
        // These fail only for want of memory or with an invalid argument, neither of which a process goes on from.
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_condattr_init(&attr) == 0, "pthread_condattr_init failed")
        precondition(pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0, "pthread_condattr_setclock failed")
        precondition(pthread_cond_init(cond, &attr) == 0, "pthread_cond_init failed")
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Wakes one waiter (call with the lock held).
    func signal() { pthread_cond_signal(cond) }

    /// Wakes every waiter (call with the lock held).
    func broadcast() { pthread_cond_broadcast(cond) }

    /// Waits (the lock held, released meanwhile) until woken.
    func wait() { pthread_cond_wait(cond, mutex) }

    /// Waits (the lock held, released meanwhile) until woken or `deadline` has passed on the monotonic clock; false
    /// when it has passed.
    @discardableResult
    func wait(until deadline: Deadline) -> Bool {
        // Bounded so the whole seconds fit (a deadline ~31,000 years ahead is as good as none).
        let instant = min(max(0, deadline.instant), 1e12)
        let whole = instant.rounded(.down)
        var ts = timespec(tv_sec: Int(whole), tv_nsec: min(999_999_999, Int((instant - whole) * 1e9)))
        return pthread_cond_timedwait(cond, mutex, &ts) != ETIMEDOUT
    }

    /// Runs `body` with the lock held.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
