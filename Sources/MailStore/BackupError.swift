/// Why `MailStore.backup(to:)` made no backup. Whatever it had written of one is removed first; the store itself
/// is never changed by a backup.
public enum BackupError: Error, Equatable, CustomStringConvertible {
    /// The destination exists and is not an empty folder (a file, a folder with something in it, a symbolic link).
    case destinationNotEmpty(String)
    /// Another backup is being written into the destination now.
    case destinationBusy(String)
    /// The destination lies inside the store folder (a backup would copy into what it copies), or is the store.
    case destinationInsideStore(String)
    /// The destination cannot be used: its parent folder is missing, the path is too long, or it cannot be made.
    case badDestination(String, String)
    /// The store's FORMAT changed while the log was copied (a newer build upgraded it meanwhile).
    case formatChangedDuringCopy(String)
    /// Copying failed (the disk is full, an I/O error); what had been written of the copy was removed.
    case copyFailed(String, String)

    public var description: String {
        switch self {
        case .destinationNotEmpty(let p):
            "\(p) exists and is not an empty folder: name a new folder (it is made) or an empty one; nothing was written"
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
}
