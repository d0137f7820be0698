import Glibc

/// Why `MailStore.backup(to:)` made no backup. Whatever it had written of one is removed first; the store itself
/// is never changed by a backup.
public enum BackupError: Error, Equatable, CustomStringConvertible {
    /// The destination exists and is not an empty folder (a file, a folder with something in it).
    case destinationNotEmpty(String)
    /// The destination is a symbolic link (the path, what it points to), dangling or not: nothing is written through one.
    case destinationIsLink(String, String)
    /// The destination folder cannot be made, or nothing can be written in it (the path, what failed with its errno
    /// and what to do: a read-only filesystem, an immutable folder, no space or no inodes left).
    case cannotWrite(String, String)
    /// Another backup is being written into the destination now.
    case destinationBusy(String)
    /// The destination lies inside the store folder (a backup would copy into what it copies), or is the store.
    case destinationInsideStore(String)
    /// The destination cannot be used: its parent folder is missing, the path is too long, or it is not the user's.
    case badDestination(String, String)
    /// The store's FORMAT changed while the log was copied (a newer build upgraded it meanwhile).
    case formatChangedDuringCopy(String)
    /// Copying failed (the disk is full, an I/O error); what had been written of the copy was removed.
    case copyFailed(String, String)

    public var description: String {
        switch self {
        case .destinationNotEmpty(let p):
            "\(p) exists and is not an empty folder: name a new folder (it is made) or an empty one; nothing was written"
        case .destinationIsLink(let p, let target):
            "\(p) is a symbolic link (to \(target)): a backup is not written through a link; name the folder itself or a new one; nothing was written"
        case .cannotWrite(let p, let why):
            "cannot write the backup in \(p): \(why); nothing was written"
        case .destinationBusy(let p):
            "another mailstore backup is writing into \(p) now: wait for it, or name another folder; nothing was written"
        case .destinationInsideStore(let p):
            "\(p) is inside the store folder: a backup belongs elsewhere, ideally on another disk; nothing was written"
        case .badDestination(let p, let why):
            "cannot back up to \(p): \(why); nothing was written"
        case .formatChangedDuringCopy(let p):
            "the store's format file \(p) changed while the log was copied (a newer mailstore upgraded the store): the copy was removed; run the backup again"
        case .copyFailed(let p, let why):
            "the backup to \(p) failed: \(why); what had been written of it was removed, the store is as it was"
        }
    }

    /// What failed writing in `folder` with `code` (an errno), and what to do: the text of `cannotWrite` (and of
    /// `copyFailed` for a write past the file-size limit).
    static func writeProblem(_ call: String, _ code: Int32, folder: String) -> String {
        let name = "\(call): \(String(cString: strerror(code))) (\(errnoName(code)))"
        switch code {
        case EROFS:
            return "\(name): the filesystem is mounted read-only; name a folder on a writable disk"
        case EPERM, EACCES:
            return "\(name): the folder \(folder) may be immutable (`lsattr -d` shows an i; `chattr -i` clears it) or not writable "
                + "by you; make it writable or name another folder"
        case ENOSPC:
            var st = statvfs()
            let inodes = statvfs(folder, &st) == 0 && st.f_files > 0 && st.f_favail == 0
            return "\(name): the disk \(inodes ? "has no free inodes left (`df -i` shows them)" : "is full"); free some or name a folder on another disk"
        case EDQUOT:
            return "\(name): your disk quota is used up; free some or name a folder on another disk"
        case EFBIG:
            return "\(name): a file would pass the file-size limit (`ulimit -f`, RLIMIT_FSIZE); raise it (`ulimit -f unlimited`) and run the backup again"
        default:
            return name
        }
    }

    /// The symbolic name of the errnos a backup names (the number for others).
    private static func errnoName(_ code: Int32) -> String {
        switch code {
        case EROFS: "EROFS"
        case EPERM: "EPERM"
        case EACCES: "EACCES"
        case ENOSPC: "ENOSPC"
        case EDQUOT: "EDQUOT"
        case EFBIG: "EFBIG"
        case EIO: "EIO"
        default: "errno \(code)"
        }
    }
}
