import Glibc

/// A reader-writer lock: transactions hold it shared, a map resize holds it exclusively, as LMDB
/// requires that no transaction of this process is active during `mdb_env_set_mapsize`.
final class ResizeLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        precondition(pthread_rwlock_init(lock, nil) == 0)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func lockShared() { precondition(pthread_rwlock_rdlock(lock) == 0) }
    func lockExclusive() { precondition(pthread_rwlock_wrlock(lock) == 0) }
    func unlock() { precondition(pthread_rwlock_unlock(lock) == 0) }
}
