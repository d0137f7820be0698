import Glibc

/// An advisory lock (`flock`) on a file, held until `unlock()` or until the process ends (the kernel
/// releases it when the holder dies, so a killed process never leaves it locked).
package final class FileLock {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Opens (creating it 0600 when `create`) and locks `path`: shared or exclusive; `wait: false` returns nil
    /// at once when another process holds a conflicting lock. Returns nil too when the file cannot be
    /// opened (a read-only store without the file: the caller goes on without it).
    package static func acquire(_ path: String, exclusive: Bool, wait: Bool = true, create: Bool = true) -> FileLock? {
        var fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0o600)
        if fd < 0 { fd = open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        var op = exclusive ? LOCK_EX : LOCK_SH
        if !wait { op |= LOCK_NB }
        while flock(fd, op) != 0 {
            if errno == EINTR { continue }
            close(fd)
            return nil
        }
        return FileLock(fd: fd)
    }

    /// True when `path` still names the file this lock is on (it was not removed or replaced since it was
    /// opened): a lock on a file another process unlinked meanwhile guards nothing.
    package func isStill(at path: String) -> Bool {
        guard fd >= 0 else { return false }
        var mine = stat(), named = stat()
        guard fstat(fd, &mine) == 0, stat(path, &named) == 0 else { return false }
        return mine.st_dev == named.st_dev && mine.st_ino == named.st_ino
    }

    /// Releases the lock.
    package func unlock() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { unlock() }
}
