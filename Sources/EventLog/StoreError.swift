/// Why a store folder could not be created or opened, and what to do.
package enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No store at the path.
    case notFound(String)
    /// No store at the path, but the folder holds a backup that did not finish (`mailstore backup` killed or failed
    /// midway: its marker, `StoreDirectory.unfinishedBackupMarker`, is there and its `FORMAT` is not).
    case unfinishedBackup(String)
    /// `init` on a folder that already holds a store.
    case alreadyExists(String)
    /// `init` on a path that is not an empty folder or nothing (the path, what is there).
    case notEmpty(String, String)
    /// The store was written by a newer format version.
    case newerFormat(found: UInt32, supported: UInt32)
    /// The format file is damaged.
    case unreadableFormat(String, String)
    /// The store folder (or the folder `init` was to make one in) belongs to another user (`StoreDirectory.checkOwner`):
    /// the path, its owner's name and uid, this process's user's name and uid.
    case notOwner(String, owner: String, ownerID: UInt32, user: String, userID: UInt32)
    /// A file system operation failed.
    case io(String, String)
    /// The store's log file is missing (`log/data.mdb`): the store is not opened, nothing is created.
    case logMissing(file: String)
    /// The store's log file is not its log (another LMDB file, not an LMDB file, a log without its first
    /// `StoreInitialized` event): the store is not opened, nothing is written.
    case notALog(file: String, why: String)

    package var description: String {
        switch self {
        case .notFound(let p):
            return "no mailstore at \(p): run `mailstore init` first, or pass --store / set MAILSTORE_HOME"
        case .unfinishedBackup(let p):
            return "\(p) holds a backup that did not finish: run the backup again (`mailstore backup --store SOURCE \(p)`) "
                + "or remove it; nothing was changed"
        case .alreadyExists(let p):
            return "a mailstore already exists at \(p); nothing was changed"
        case .notEmpty(let p, let what):
            return "cannot create a store at \(p): \(what); give a new or empty folder (nothing was changed)"
        case .newerFormat(let found, let supported):
            return "this store has format version \(found), newer than this build supports (\(supported)): upgrade mailstore; the store was not touched"
        case .unreadableFormat(let f, let why):
            return "the store's format file \(f) is unreadable (\(why)): it should contain 'mailstore-store-format \(StoreDirectory.formatVersion)'"
        case .notOwner(let p, owner: let owner, ownerID: let ownerID, user: let user, userID: let userID):
            return "the store \(p) belongs to user \(owner) (uid \(ownerID)), and this command runs as \(user) (uid \(userID)): "
                + "mailstore uses only stores of the user running it (another user's store could have it write through links "
                + "placed there, and what it wrote there would lock that user out of their store). Run the command as the "
                + "store's owner (`sudo -u \(owner) mailstore ...`); nothing was opened or changed"
        case .io(let p, let why):
            return "\(p): \(why)"
        case .logMissing(let file):
            return "the store's log \(file) is missing: the store was not opened and nothing was written (its views are "
                + "left as they are); restore the log from a backup (`mailstore backup`: put the backup's FORMAT and log/ "
                + "in place of the store's, docs/operations.md \"Backups\"). Only `mailstore init` starts a new log"
        case .notALog(let file, let why):
            return "the store's log \(file) is not a mailstore log: \(why). The store was not opened and nothing was "
                + "written (its views are left as they are); restore the log from a backup (`mailstore backup`: put the "
                + "backup's FORMAT and log/ in place of the store's, docs/operations.md \"Backups\"). Only `mailstore init` "
                + "starts a new log"
        }
    }
}
