import EventLog
import Foundation
import Glibc

/// Room for an OAuth token file's next version, set aside before a refresh goes out: a temporary file beside the token
/// file (`NAME.oauth.tmp-PID`, made with `O_EXCL | O_NOFOLLOW`, 0600) of the token file's maximum size
/// (``OAuthTokenFile/maxBytes``), written and synced, so its blocks are the file system's. A provider that rotates
/// refresh tokens spends the old one when it answers: were the new one then not written (a full disk), the sign-in
/// would be lost (revoked at once by one with reuse detection). Written into these blocks (truncated to its length,
/// synced) and renamed over the token file, it needs no new room on file systems that write in place (ext4, XFS,
/// tmpfs); on copy-on-write ones (Btrfs, ZFS) a write can still fail, which ``store(_:)`` reports.
final class OAuthTokenReservation {
    /// The token file.
    let path: String
    /// The temporary file holding the room.
    let temporary: String
    private var fd: Int32

    /// Sets the room aside beside the token file at `path`; throws ``AccountError/noRoomForToken(account:file:reason:diskFull:)``
    /// (nothing left behind) when it cannot. `account` only names the account in errors.
    init(tokenFile path: String, account: String) throws(AccountError) {
        self.path = path
        temporary = path + ".tmp-\(getpid())"
        OAuthTokenReservation.removeLeftovers(of: path)
        fd = StoreDirectory.createPrivateTemporary(temporary)
        var failure = fd < 0 ? errno : 0
        if fd >= 0 {
            let spaces = [UInt8](repeating: 0x20, count: 64 * 1024)
            var done = 0
            while failure == 0 && done < OAuthTokenFile.maxBytes {
                let n = spaces.withUnsafeBytes { pwrite(fd, $0.baseAddress, min($0.count, OAuthTokenFile.maxBytes - done), off_t(done)) }
                if n > 0 { done += n } else if n < 0 && errno != EINTR { failure = errno } else if n == 0 { failure = EIO }
            }
            if failure == 0, fchmod(fd, 0o600) != 0 || fsync(fd) != 0 { failure = errno }
        }
        guard failure != 0 else { return }
        cancel()
        throw .noRoomForToken(account: account, file: path, reason: String(cString: strerror(failure)),
                              diskFull: failure == ENOSPC || failure == EDQUOT)
    }

    /// Writes `file` into the room (at most ``OAuthTokenFile/maxBytes``, a file that large could not be read back),
    /// cuts it to its length, syncs it and renames it over the token file; throws
    /// ``AccountError/secretNotWritten(file:reason:diskFull:)`` when any of it fails (the temporary removed, the token
    /// file as it was). Either way the room is given back.
    func store(_ file: OAuthTokenFile) throws(AccountError) {
        defer { cancel() }
        guard fd >= 0 else { throw .secretNotWritten(file: path, reason: "its room was given back", diskFull: false) }
        let data: Data
        do { data = try file.encoded() } catch { throw .secretNotWritten(file: path, reason: "\(error)", diskFull: false) }
        guard data.count <= OAuthTokenFile.maxBytes else { throw OAuthTokenFile.tooLarge(data.count, path) }
        var failure: Int32 = 0
        if !OAuthTokenFile.writeAll(fd, data) || ftruncate(fd, off_t(data.count)) != 0 || fsync(fd) != 0 || rename(temporary, path) != 0 {
            failure = errno
        }
        committed = failure == 0
        guard failure != 0 else { return }
        throw .secretNotWritten(file: path, reason: String(cString: strerror(failure)), diskFull: failure == ENOSPC || failure == EDQUOT)
    }

    /// Whether ``store(_:)`` renamed the temporary over the token file.
    private var committed = false

    /// Gives the room back: the temporary closed and, unless it became the token file, removed.
    func cancel() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        if !committed { unlink(temporary) }
    }

    deinit { cancel() }

    /// Removes the temporaries of the token file at `path` that processes no longer running left (one killed while its
    /// refresh was at the server leaves its room, 256 KiB). Called under the token file's lock.
    static func removeLeftovers(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(folder + "/" + name)
        }
    }
}
