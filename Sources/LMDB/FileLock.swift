import Glibc

/// An advisory lock (`flock`) on a file, held until `unlock()` or until the process ends (the kernel
/// releases it when the holder dies, so a killed process never leaves it locked).
package final class FileLock {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Opens (creating it 0600 when `create`) and locks `path`: shared or exclusive; `wait: false` returns nil
    /// at once when another process holds a conflicting lock. Returns nil too when the file cannot be
    /// opened (a read-only store without the file: the caller goes on without it), and when `path` is a symbolic link
    /// (`ELOOP`): a lock file is never opened, let alone made, through a link (one planted in a store had an open
    /// create or lock whatever it named). `errno` tells which: `EWOULDBLOCK` for a lock held by another (`wait: false`).
    package static func acquire(_ path: String, exclusive: Bool, wait: Bool = true, create: Bool = true) -> FileLock? {
        var fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), 0o600)
        if fd < 0 && errno != ELOOP { fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        guard fd >= 0 else { return nil }
        var op = exclusive ? LOCK_EX : LOCK_SH
        if !wait { op |= LOCK_NB }
        while flock(fd, op) != 0 {
            if errno == EINTR { continue }
            let refused = errno
            close(fd)
            errno = refused
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

    /// Turns the lock held into a shared one, or tries to make it exclusive (`exclusive: true`, never waiting). Returns
    /// whether the lock is now of that kind. An exclusive lock refused (another holder) leaves the lock shared: Linux
    /// drops the held lock before it tries the new one, so the shared lock is taken again (waiting only for an
    /// exclusive holder, which a caller of this that keeps other exclusive holders out never meets).
    @discardableResult
    package func convert(exclusive: Bool) -> Bool {
        guard fd >= 0 else { return false }
        if exclusive {
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                if errno == EINTR { continue }
                while flock(fd, LOCK_SH) != 0 && errno == EINTR {}
                return false
            }
            return true
        }
        while flock(fd, LOCK_SH) != 0 {
            if errno != EINTR { return false }
        }
        return true
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
