import EventLog
import Foundation
import SecureTransport
import Glibc

/// Lets one process at a time refresh the tokens of an OAuth token file: an exclusive `flock` on the lock file
/// beside it (`STORE/secrets/NAME.oauth.lock`, 0600, in the 0700 secrets folder). A provider that rotates refresh
/// tokens (Microsoft Entra) refuses a refresh token used twice, and with reuse detection (OAuth 2.0 Security BCP)
/// revokes the whole sign-in for it; two processes refreshing at once (a `sync --watch` and a `send`) would use the
/// same one. The holder's process id is written in the file, for the message of one that waited in vain.
///
/// The wait is bounded (polled every 20 ms until a deadline). The kernel drops a `flock` when the last descriptor
/// of its open file is closed, which happens when its holder ends however it ends (SIGKILL included): a lock held
/// by a dead process is released by the kernel, so none is ever stale.
final class OAuthRefreshLock {
    /// The lock file.
    let file: String
    private var fd: Int32

    /// How often a held lock is tried again.
    static let poll = 0.02

    /// The lock file of the token file at `tokenFile`.
    static func path(forTokenFile tokenFile: String) -> String { tokenFile + ".lock" }

    /// Takes the lock of the token file at `tokenFile`, waiting for another holder at most until `deadline`;
    /// throws ``OAuthError/refreshInProgress(account:holder:waitedSeconds:)`` (as ``AccountError/oauth(_:)``)
    /// after that, and ``AccountError/credentialUnavailable(_:)`` when the lock file cannot be opened or locked.
    /// `account` only names the account in errors.
    convenience init(tokenFile: String, account: String, deadline: Date) throws(AccountError) {
        try self.init(tokenFile: tokenFile, account: account, until: Deadline(wall: deadline))
    }

    /// The same, `deadline` on the monotonic clock (a wall clock stepped back does not stretch the wait).
    init(tokenFile: String, account: String, until deadline: Deadline) throws(AccountError) {
        file = OAuthRefreshLock.path(forTokenFile: tokenFile)
        fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw .credentialUnavailable("cannot open the token file's lock \(file): \(String(cString: strerror(errno)))")
        }
        let started = Deadline.now()
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let why = errno
            guard why == EWOULDBLOCK || why == EINTR else {
                close(fd)
                fd = -1
                throw .credentialUnavailable("cannot lock \(file): \(String(cString: strerror(why)))")
            }
            let left = deadline.secondsLeft
            guard left > 0 else {
                let holder = AccountLock.readHolder(fd)
                close(fd)
                fd = -1
                throw .oauth(.refreshInProgress(account: account, holder: holder, waitedSeconds: Deadline.now() - started))
            }
            Thread.sleep(forTimeInterval: min(OAuthRefreshLock.poll, left))
        }
        _ = fchmod(fd, 0o600)
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Releases the lock (also done when the lock is deallocated).
    func release() {
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
