import EventModel
import Foundation
import Glibc

/// An exclusive lock on one kind of work for one account, across processes: `flock` on
/// `STORE/locks/KIND-ACCOUNT.lock` (file 0600, folder 0700), held until the lock is released or the
/// process ends (the kernel drops it even on SIGKILL, so a killed holder never leaves it stuck). Two
/// `sync`s of one account would otherwise both record the same new folders and checkpoints.
package final class AccountLock: @unchecked Sendable {
    /// The lock file.
    package let file: String
    private var fd: Int32

    /// Takes the lock, waiting at most `waitSeconds` (polling every 50 ms) for another holder to let go;
    /// throws `AccountLockError.held` after that.
    package init(store: StoreDirectory, kind: String, account: String, waitSeconds: Double) throws {
        let dir = store.path + "/locks"
        try StoreDirectory.makePrivateDirectory(dir)
        // Account names are free text: hex keeps the file name safe and distinct.
        let name = Hex.lowercase(account.utf8)
        file = "\(dir)/\(kind)-\(name).lock"
        fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw StoreError.io(file, "cannot open the lock file: \(String(cString: strerror(errno)))") }
        // On the monotonic clock: a wall clock stepped back does not stretch the wait (it had, by the step).
        let deadline = ContinuousClock.now.advanced(by: .seconds(max(0, waitSeconds)))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let why = errno
            guard why == EWOULDBLOCK || why == EINTR else {
                close(fd)
                throw StoreError.io(file, "cannot lock: \(String(cString: strerror(why)))")
            }
            if ContinuousClock.now >= deadline {
                let holder = AccountLock.readHolder(fd)
                close(fd)
                throw AccountLockError.held(kind: kind, account: account, holder: holder, waitedSeconds: waitSeconds)
            }
            usleep(50_000)
        }
        // Name the holder for the message another process may print.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Releases the lock (also done when the lock is deallocated).
    package func release() {
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        close(fd)
        fd = -1
    }

    deinit { release() }

    /// The process id written in the lock file open at `fd` (nil when none is).
    package static func readHolder(_ fd: Int32) -> Int32? {
        var buf = [UInt8](repeating: 0, count: 32)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: buf[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
