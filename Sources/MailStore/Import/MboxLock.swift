import Foundation

/// Keeps writers off an mbox file while an import reads it, the way mutt, Dovecot and Python's `mailbox.lock()`
/// share a spool with a delivery agent: a dot-lock (`FILE.lock`) another program holds is waited for, and a shared
/// `fcntl` lock (`F_RDLCK`) is held on the file for the whole read, so a writer taking its exclusive lock waits until
/// the import is done and a writer holding one is waited for.
///
/// No dot-lock is created: a killed import would leave it behind and stop mail delivery until the delivery agent
/// takes it for stale. A file system where `fcntl` locks are not supported (`EINVAL`, `ENOLCK`, `EOPNOTSUPP`, ...)
/// is read without one. Bound: both waits together take at most `wait` (default 10 s, polled every 100 ms), then
/// `ImportError.mboxLocked`.
struct MboxLock {
    /// How long to wait for another program's lock, dot-lock and `fcntl` lock together.
    static let defaultWait: Duration = .seconds(10)
    /// How often a held lock is tried again.
    static let poll: Duration = .milliseconds(100)

    /// Whether the shared `fcntl` lock is held (false where the file system does not support one).
    let holdsFcntlLock: Bool

    /// Waits for `path`'s dot-lock to go and takes a shared `fcntl` lock on `fd` (the file opened for reading), within
    /// `wait`. Released when `fd` is closed. Throws `ImportError.mboxLocked` when another program still holds either
    /// lock after `wait`.
    static func acquire(fd: Int32, path: String, wait: Duration = defaultWait) throws(ImportError) -> MboxLock {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: wait)
        let dotLock = path + ".lock"
        func waitOrFail(_ holder: String) throws(ImportError) {
            guard clock.now < deadline else {
                throw .mboxLocked(path, "\(holder) for \(wait)")
            }
            let nap = min(poll, deadline - clock.now)
            Thread.sleep(forTimeInterval: Double(nap.components.seconds) + Double(nap.components.attoseconds) / 1e18)
        }
        while true {
            while hasDotLock(dotLock) { try waitOrFail("its dot-lock \(dotLock) stayed") }
            var lock = flock()
            lock.l_type = Int16(F_RDLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = 0
            lock.l_len = 0
            if fcntl(fd, F_SETLK, &lock) != 0 {
                let e = errno
                if e == EACCES || e == EAGAIN {
                    try waitOrFail("a write lock (fcntl) on it was held")
                    continue
                }
                if e == EINTR { continue }
                // Not supported where it is (EINVAL, ENOLCK, EOPNOTSUPP, EBADF...): read without.
                guard !hasDotLock(dotLock) else { continue }
                return MboxLock(holdsFcntlLock: false)
            }
            // A writer that only dot-locks may have begun between the look and the lock: look again.
            guard hasDotLock(dotLock) else { return MboxLock(holdsFcntlLock: true) }
            lock.l_type = Int16(F_UNLCK)
            _ = fcntl(fd, F_SETLK, &lock)
        }
    }

    /// Whether the dot-lock `path` is there (any kind of entry: a writer may make it a link).
    private static func hasDotLock(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }
}
