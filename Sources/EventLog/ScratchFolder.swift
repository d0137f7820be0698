import Foundation
import Glibc
import LMDB

/// A private folder for work that is thrown away: `verify --views`' rebuilt views and search index, the views
/// or search index folded up to a point for `--as-of` where no history serves it. It holds the store's mail (a
/// rebuilt index's terms, contacts, subjects; at 1M messages ~4.7 GB for `verify --views`), so it is made in the
/// store's own `scratch/` folder, on the store's disk and as private as the store (0700), not in the system's
/// temporary folder (often a RAM-backed tmpfs, shared with other users' programs). Only where the store's folder
/// cannot be written (a store read from a read-only mount or another user's store) is it made in `$TMPDIR`, in this
/// user's `mailstore-scratch-UID/` there (`temporaryRoot`), with lock files and clean-ups as in `scratch/`.
///
/// Each folder in `scratch/` has a lock file beside it (`NAME.lock`) held by its owner while it lives: a process
/// killed in the middle of a `verify --views` leaves its folder, and the next one to make a scratch folder or open
/// the store for writing removes every folder whose lock no process holds (`removeAbandoned`).
///
/// Where the store's disk has too little room for the work (`expectedBytes`, twice over and 64 MiB more: a 16 MB
/// store filesystem cannot hold a copy of its own views), `$TMPDIR` serves instead, and `notice` says so.
///
/// The folder is made when `path()` is first called and removed with its lock file by `remove()` or when the
/// object goes.
package final class ScratchFolder: @unchecked Sendable {
    /// The name of the store's scratch folder.
    package static let folderName = "scratch"
    /// How many random names are tried before giving up (a name already taken is skipped).
    static let attempts = 8

    private let store: StoreDirectory?
    private let kind: String
    private let expectedBytes: Int
    private let notice: (String) -> Void
    private let lock = NSLock()
    private var made: (path: String, fileLock: FileLock?)?
    private var removed = false

    /// A scratch folder for `kind` (a word: `verify`, `asof`) in `store`'s scratch folder, made on first use.
    /// `store` nil: in the system's temporary folder. `expectedBytes`: about what the work writes there (its
    /// room is checked when the folder is made); `notice` is told when it goes to `$TMPDIR` for want of room.
    package init(store: StoreDirectory?, kind: String, expectedBytes: Int = 0, notice: @escaping (String) -> Void = { _ in }) {
        self.store = store
        self.kind = kind
        self.expectedBytes = max(0, expectedBytes)
        self.notice = notice
    }

    /// The room the store's disk must have free for work expected to write `bytes`.
    package static func roomNeeded(for bytes: Int) -> Int {
        let (twice, over) = bytes.multipliedReportingOverflow(by: 2)
        return over ? Int.max : (twice > Int.max - (64 << 20) ? Int.max : twice + (64 << 20))
    }


    deinit { remove() }

    /// The folder's path, made (0700) on the first call. In the store's `scratch/` when it can be written there,
    /// else in `$TMPDIR`; the folders of killed processes in `scratch/` are removed first.
    package func path() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made.path }
        precondition(!removed, "a scratch folder is used after its removal")
        if let store, let inStore = try makeInStore(store) {
            made = inStore
        } else if let root = ScratchFolder.temporaryRoot() {
            ScratchFolder.removeAbandoned(root: root)
            made = try ScratchFolder.make(kind: kind, in: root)
        } else {
            let folder = FileManager.default.temporaryDirectory.path + "/mailstore-\(kind)-\(ScratchFolder.randomName())"
            try StoreDirectory.makePrivateDirectory(folder)
            made = (folder, nil)
        }
        return made!.path
    }

    /// Removes the folder and its lock file (nothing when it was never made). Idempotent.
    package func remove() {
        lock.lock()
        defer { lock.unlock() }
        removed = true
        guard let m = made else { return }
        made = nil
        try? FileManager.default.removeItem(atPath: m.path)
        // The folder first, then its lock file: a folder is never without its lock while its owner lives.
        if let fileLock = m.fileLock {
            unlink(m.path + ".lock")
            fileLock.unlock()
        }
    }

    /// The scratch folder of `store` (or nil where it cannot be made: the store's folder cannot be written).
    private func makeInStore(_ store: StoreDirectory) throws -> (path: String, fileLock: FileLock?)? {
        let root = store.path + "/" + ScratchFolder.folderName
        guard access(store.path, W_OK) == 0 else { return nil }
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) {
            guard (try? StoreDirectory.makePrivateDirectory(root)) != nil else { return nil }
        } else if !isFolder.boolValue {
            return nil
        }
        guard access(root, W_OK) == 0 else { return nil }
        ScratchFolder.removeAbandoned(in: store)
        let needed = ScratchFolder.roomNeeded(for: expectedBytes)
        if expectedBytes > 0, let free = Environment.freeBytes(at: root), free < needed {
            notice("the store's disk has \(free >> 20) MiB free, where this work needs about \(needed >> 20) MiB: "
                   + "its scratch folder is in the system's temporary folder instead (\(FileManager.default.temporaryDirectory.path))")
            return nil
        }
        return try ScratchFolder.make(kind: kind, in: root)
    }

    /// The folder in `$TMPDIR` holding this user's scratch folders where the store's cannot serve
    /// (`mailstore-scratch-UID`, 0700). Each folder there has its lock file as in `scratch/`, so the folders of killed
    /// processes are removed by the next scratch folder made there (each had stayed in `$TMPDIR` for good, a copy of
    /// the store's views). Nil when it cannot be made or is not this user's own folder (`$TMPDIR` is shared: another
    /// user's folder, a symbolic link): a folder of its own is then made in `$TMPDIR`, as before.
    package static func temporaryRoot() -> String? {
        let root = FileManager.default.temporaryDirectory.path + "/mailstore-scratch-\(geteuid())"
        if mkdir(root, 0o700) != 0 && errno != EEXIST { return nil }
        var st = stat()
        guard lstat(root, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == geteuid() else { return nil }
        if st.st_mode & 0o777 != 0o700 && chmod(root, 0o700) != 0 { return nil }
        return root
    }

    /// Makes a scratch folder for `kind` in `root` (the store's `scratch/`, or `temporaryRoot()`), its lock file
    /// beside it made first and held.
    private static func make(kind: String, in root: String) throws -> (path: String, fileLock: FileLock?) {
        for _ in 0..<ScratchFolder.attempts {
            let name = root + "/\(kind)-\(ScratchFolder.randomName())"
            // The lock file first, made new and locked, then the folder: a folder without a lock file is never
            // an owner's.
            let fd = open(name + ".lock", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                if errno == EEXIST { continue }
                throw StoreError.io(name + ".lock", "cannot create a scratch folder's lock file: \(String(cString: strerror(errno)))")
            }
            close(fd)
            // Between the file's creation and its lock another process's clean-up may have taken and removed it:
            // then the lock is on a file no longer there, and another name is tried.
            guard let fileLock = FileLock.acquire(name + ".lock", exclusive: true, wait: false, create: false),
                  fileLock.isStill(at: name + ".lock") else { continue }
            do {
                try StoreDirectory.makePrivateDirectory(name)
            } catch {
                unlink(name + ".lock")
                throw error
            }
            return (name, fileLock)
        }
        throw StoreError.io(root, "cannot find a free name for a scratch folder in \(ScratchFolder.attempts) tries")
    }

    /// The most entries of the scratch folder one clean-up reads (its folders and lock files): the folder is the
    /// store's, but what is in it is not trusted to be few; what is past the bound goes at a later clean-up.
    package static let maxEntries = 4_096

    /// Removes from `store`'s scratch folder every folder whose owner is gone (its lock file not held, or missing)
    /// and every lock file no process holds, among the first `maxEntries` entries read. Returns the names of the
    /// folders removed. Folders in use are left.
    @discardableResult
    package static func removeAbandoned(in store: StoreDirectory) -> [String] {
        removeAbandoned(root: store.path + "/" + folderName)
    }

    /// `removeAbandoned(in:)` in the scratch folder `root` (the store's, or `temporaryRoot()`).
    @discardableResult
    package static func removeAbandoned(root: String) -> [String] {
        guard let names = entries(of: root, most: maxEntries) else { return [] }
        var removedFolders: [String] = []
        for name in names.sorted() where name.hasSuffix(".lock") {
            let lockPath = root + "/" + name
            guard let held = FileLock.acquire(lockPath, exclusive: true, wait: false, create: false),
                  held.isStill(at: lockPath) else { continue }
            let folder = String(lockPath.dropLast(".lock".count))
            if FileManager.default.fileExists(atPath: folder) {
                try? FileManager.default.removeItem(atPath: folder)
                removedFolders.append(String(name.dropLast(".lock".count)))
            }
            unlink(lockPath)
            held.unlock()
        }
        // A folder without a lock file: its owner (or a clean-up) was killed while removing it.
        // (Checked again by name: a listing made while others create entries may show a folder and not its lock.)
        let locks = Set(names.filter { $0.hasSuffix(".lock") })
        for name in names where !name.hasSuffix(".lock") && !locks.contains(name + ".lock") {
            guard access(root + "/" + name + ".lock", F_OK) != 0 else { continue }
            if (try? FileManager.default.removeItem(atPath: root + "/" + name)) != nil { removedFolders.append(name) }
        }
        return removedFolders
    }

    /// The names in `folder` (not `.` and `..`), at most `most` of them; nil when it cannot be read.
    package static func entries(of folder: String, most: Int) -> [String]? {
        guard let d = opendir(folder) else { return nil }
        defer { closedir(d) }
        var out: [String] = []
        while out.count < most, let e = readdir(d) {
            let name = String(decoding: DirectoryEntry.name(e), as: UTF8.self)
            if name != "." && name != ".." { out.append(name) }
        }
        return out
    }

    /// 16 hex digits from the system's random source.
    static func randomName() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16)
    }
}
