import Foundation
import Glibc

/// The store folder: the log environment, the views environment (apart from it) and the format
/// version, all private to the user (folders 0700, files 0600).
///
/// ```
/// STORE/
///   FORMAT        "mailstore-store-format 9"
///   log/          the event log and blob store (LMDB)
///   views/        projections (LMDB), disposable: rebuilt from the log
///   scratch/      work thrown away (`ScratchFolder`): `verify --views`' rebuild, `--as-of` folds
///   cache/        what `stats` counted (`LogTally`): a cache, rebuilt when missing or not this log's
/// ```
public struct StoreDirectory: Sendable {
    /// The store format this build writes; it reads every format from 1 up to it.
    ///
    /// - 1: the log (events, ids, stream index, blobs with flags 0 and 1, meta) and the views;
    /// - 2: adds blob dictionaries (in the log's meta) and blobs compressed with one (flag 2). A format 1
    ///   store is a format 2 store without dictionaries, so the upgrade rewrites only the FORMAT file
    ///   (on the first open for writing), after which an older build refuses the store instead of
    ///   failing on a blob it cannot read.
    /// - 3: new blobs are numbered and appended (`blob_data`, with the hash index `blob_keys`) instead of keyed
    ///   by hash (`blobs`). The upgrade rewrites only the FORMAT file: the two databases are created on the
    ///   first open for writing, the blobs already stored stay where they are and are read there, and an older
    ///   build, which would not see the numbered blobs, refuses the store.
    /// - 4: new log records are of record format 2 (the chain hash over the record's digest, `RecordCodec`). The
    ///   upgrade rewrites only the FORMAT file: the records already stored stay format 1 and are read and
    ///   verified as they are, and an older build, which would fail on a format 2 record, refuses the store.
    /// - 5: records may hold the event catalog of 2026-12-06 (`EmailReceived`, `EmailCategorized`, `AccountAdded`,
    ///   `AccountSettingsDiscovered` and `NotificationDecided` at schema 2; `StoreFormatCatalogTests` keeps the whole
    ///   list). A format 4 build reads the store but sets aside every event of a schema it does not know: it showed
    ///   such a store without most of its mail, exit 0, and `verify` told to restore the log from a backup. The upgrade
    ///   rewrites only the FORMAT file, so such a build refuses the store instead.
    /// - 6: `FolderSyncCheckpointed` at schema 2 (its `unfetchable` UIDs, 2026-12-07). The upgrade rewrites only the
    ///   FORMAT file.
    /// - 7: `FolderSyncCheckpointed` at schema 3 (when each unfetchable UID was given up and how many times: the
    ///   scheduled retry, 2026-12-07). The upgrade rewrites only the FORMAT file.
    /// - 8: `DraftSaved` at schema 2 (each attachment's `charset`: a forwarded text attachment keeps it, 2026-12-07).
    ///   The upgrade rewrites only the FORMAT file.
    /// - 9: `EmailReceived` at schema 3 (a Gmail copy's `gmailMessageID`, X-GM-MSGID: a copy of a message stored under
    ///   another label is recorded from its blob, not fetched again, 2026-12-08). The upgrade rewrites only the FORMAT
    ///   file.
    ///
    /// From 5 on, every new event type and every new schema version of an event bumps the format (the catalog test
    /// fails until it does): a build never folds a log holding events it cannot read.
    public static let formatVersion: UInt32 = 9
    static let formatPrefix = "mailstore-store-format "

    /// The store folder.
    public let path: String
    /// The log environment's folder.
    public var logPath: String { path + "/log" }
    /// The views environment's folder.
    public var viewsPath: String { path + "/views" }
    /// The format file.
    public var formatFile: String { path + "/FORMAT" }
    /// What `stats` counted of the log, so the next one walks only what came since (`LogTally`): a cache.
    public var statsCacheFile: String { path + "/cache/log-stats.json" }

    /// Resolves the store folder: `explicit` (`--store`), else `$MAILSTORE_HOME`, else
    /// `$XDG_DATA_HOME/mailstore`, else `~/.local/share/mailstore`.
    public static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let e = explicit, !e.isEmpty { return absolute(e) }
        if let h = environment["MAILSTORE_HOME"], !h.isEmpty { return absolute(h) }
        if let x = environment["XDG_DATA_HOME"], !x.isEmpty { return absolute(x) + "/mailstore" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/mailstore"
    }

    static func absolute(_ p: String) -> String {
        if p.hasPrefix("/") { return p }
        if p == "~" || p.hasPrefix("~/") { return NSHomeDirectory() + p.dropFirst() }
        return FileManager.default.currentDirectoryPath + "/" + p
    }

    /// A store folder at `path` (nothing checked yet).
    public init(path: String) {
        self.path = path
    }

    /// True when `path` holds a store (its format file exists).
    public var exists: Bool { access(formatFile, F_OK) == 0 }

    /// The file that marks a folder `mailstore backup` is writing into, removed once the verified copy is in place
    /// (`MailStore.backup(to:)`): a folder holding it and no `FORMAT` is a backup that did not finish.
    public static let unfinishedBackupMarker = ".mailstore-backup-unfinished"

    /// True when `path` holds no store but a backup that did not finish (its marker).
    var holdsUnfinishedBackup: Bool {
        !exists && access(path + "/" + StoreDirectory.unfinishedBackupMarker, F_OK) == 0
    }

    /// Creates a new store folder. Fails if one is already there, or if `path` is a folder holding anything else (a
    /// home folder given by mistake): its files are not the store's to mix with, nor its mode to tighten.
    public func create() throws {
        if exists { throw StoreError.alreadyExists(path) }
        var st = stat()
        if stat(path, &st) == 0 {
            try checkOwner()
            guard st.st_mode & S_IFMT == S_IFDIR else { throw StoreError.notEmpty(path, "it is a file, not a folder") }
            guard let names = ScratchFolder.entries(of: path, most: 1) else {
                throw StoreError.io(path, "cannot read the folder: \(String(cString: strerror(errno)))")
            }
            if holdsUnfinishedBackup { throw StoreError.unfinishedBackup(path) }
            if let first = names.first { throw StoreError.notEmpty(path, "it holds other files (\(first) among them)") }
        }
        try StoreDirectory.makePrivateDirectory(path)
        try StoreDirectory.makePrivateDirectory(logPath)
        try StoreDirectory.makePrivateDirectory(viewsPath)
        try StoreDirectory.writePrivateFile(formatFile, contents: "\(StoreDirectory.formatPrefix)\(StoreDirectory.formatVersion)\n")
    }

    /// Refuses a store folder (or a folder to make one in) that another user owns (`StoreError.notOwner`), as git
    /// refuses another user's repository: run by root or an administrator on a user's store, mailstore had written
    /// through links its owner planted there (a root-owned file cut and overwritten with LMDB's lock table), and left
    /// files of its own user there that refused the owner every later command. Nothing is overridden: the command is
    /// run as the store's owner (`sudo -u OWNER mailstore ...`). A folder that cannot be looked at is left to the open
    /// that follows, which says what fails.
    public func checkOwner() throws {
        var st = stat()
        guard stat(path, &st) == 0 else { return }
        let me = geteuid()
        if st.st_uid != me {
            throw StoreError.notOwner(path, owner: StoreDirectory.userName(st.st_uid), ownerID: st.st_uid,
                                      user: StoreDirectory.userName(me), userID: me)
        }
    }

    /// The login name of `uid` (its number when the user database has none).
    static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name else {
            return "\(uid)"
        }
        return String(cString: name)
    }

    /// Checks that `path` holds a store this build can open; returns its format version.
    @discardableResult
    public func checkFormat() throws -> UInt32 {
        guard exists else { throw holdsUnfinishedBackup ? StoreError.unfinishedBackup(path) : StoreError.notFound(path) }
        guard let data = StoreDirectory.readSmallFile(formatFile),
              let text = String(validating: data, as: UTF8.self) else {
            throw StoreError.unreadableFormat(formatFile, "cannot read it (a regular file of at most 4 KiB of UTF-8 text)")
        }
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix(StoreDirectory.formatPrefix),
              let v = UInt32(line.dropFirst(StoreDirectory.formatPrefix.count)) else {
            throw StoreError.unreadableFormat(formatFile, "unexpected contents '\(line.prefix(60))'")
        }
        if v > StoreDirectory.formatVersion { throw StoreError.newerFormat(found: v, supported: StoreDirectory.formatVersion) }
        return v
    }

    /// Checks the format and upgrades an older one to `formatVersion` (see there: only the FORMAT file
    /// changes). Returns the version found before the upgrade.
    @discardableResult
    public func upgradeFormat() throws -> UInt32 {
        let v = try checkFormat()
        if v < StoreDirectory.formatVersion {
            try StoreDirectory.writePrivateFile(formatFile, contents: "\(StoreDirectory.formatPrefix)\(StoreDirectory.formatVersion)\n")
        }
        return v
    }

    /// Creates `dir` (and parents) with mode 0700; an existing folder has its mode tightened to 0700.
    public static func makePrivateDirectory(_ dir: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.io(dir, "cannot create folder: \(error.localizedDescription)")
        }
        // A link the user put in the store's place (the store's folders on another disk): its target's mode is left as
        // it is (chmod would change the mode of whatever the link names).
        var st = stat()
        if lstat(dir, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK { return }
        if chmod(dir, 0o700) != 0 { throw StoreError.io(dir, "cannot set mode 0700: \(String(cString: strerror(errno)))") }
    }

    /// The bytes of a small file the store keeps (`FORMAT`, the views' `CURRENT`), or nil when it is not a
    /// regular file of at most `maxBytes` that can be read (`BoundedFile`: files on disk are hostile).
    package static func readSmallFile(_ path: String, maxBytes: Int = 4_096) -> [UInt8]? {
        try? BoundedFile.read(path, maxBytes: maxBytes)
    }

    /// Writes `contents` to `file` with mode 0600, atomically (temp file + rename).
    public static func writePrivateFile(_ file: String, contents: String) throws {
        try writePrivateFile(file, bytes: Array(contents.utf8))
    }

    /// Writes `bytes` to `file` with mode 0600, atomically: a temporary file of this process's beside it, synced
    /// (unless not `synced`: a cache, which a crash may leave empty or old), then renamed over it.
    package static func writePrivateFile(_ file: String, bytes: [UInt8], synced: Bool = true) throws {
        let tmp = file + ".\(getpid()).tmp"
        let fd = createPrivateTemporary(tmp)
        guard fd >= 0 else { throw StoreError.io(tmp, String(cString: strerror(errno))) }
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let ok = n == bytes.count && (!synced || fsync(fd) == 0)
        close(fd)
        guard ok, rename(tmp, file) == 0 else {
            unlink(tmp)
            throw StoreError.io(file, "cannot write: \(String(cString: strerror(errno)))")
        }
    }

    /// Creates `tmp` (a temporary name of this process's, renamed over a file once written) new, 0600, for writing;
    /// returns its descriptor, or -1 with `errno` set. Never through a link and never into a file already there
    /// (`O_EXCL | O_NOFOLLOW`): what is at the name (left by an earlier process of the same pid, or a link planted there:
    /// it had been truncated and written through, then renamed into the file's place) is removed first and the file
    /// made again, once. `unlink` removes a link itself, never what it names.
    package static func createPrivateTemporary(_ tmp: String) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = open(tmp, flags, 0o600)
        guard fd < 0 && errno == EEXIST else { return fd }
        guard unlink(tmp) == 0 || errno == ENOENT else { return -1 }
        return open(tmp, flags, 0o600)
    }
}
