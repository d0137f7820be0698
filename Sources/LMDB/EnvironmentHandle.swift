import CLMDB
import Foundation
import Glibc

/// An open LMDB environment (`MDB_env`) of this process, with what belongs to its map: shared by every
/// `Environment` opened on the same folder in this process.
///
/// LMDB must not have one environment open twice in a process: a second `mdb_env_open` finds no other process's
/// lock on `lock.mdb` (POSIX locks never conflict within a process), so it takes itself for the only user and
/// initializes the lock file's reader table and writer mutex again under the first handle (its readers uncounted,
/// two writers at once); and closing either handle's lock file drops the process's locks on it, so another process
/// takes its live readers for dead. So `Environment.init` shares the handle already open on the folder's data file
/// (`EnvironmentHandle.registry`, keyed by the file's device and inode, which the handle keeps open, so no other
/// file takes its number while it is registered; a folder removed and made again is another file) and the last
/// `Environment` to go closes it. A request the open handle cannot serve (a write where it is read-only, `MDB_WRITEMAP` or `MDB_NOSYNC` other
/// than asked, more named databases) is refused (`HandleConflictError`) rather than given a second handle: none of
/// the store's own paths asks so.
final class EnvironmentHandle: @unchecked Sendable {
    let env: OpaquePointer
    /// Held shared by every transaction, exclusively by a change of the map (`mdb_env_set_mapsize` requires that no
    /// transaction of the process is active on the handle).
    let resizeLock = ResizeLock()
    /// A `MDB_WRITEMAP` writer's shared lock on its folder, held while the handle is open (`Environment.joinWriters`).
    let presence: FileLock?
    /// The map's address ranges once found (`Environment.mappedRanges`), guarded by `rangesLock`; dropped when remapped.
    var cachedRanges: [Range<UInt>]?
    let rangesLock = NSLock()
    /// Opened with `MDB_RDONLY`.
    let readOnlyFlag: Bool
    /// Opened with `MDB_WRITEMAP` (writable): pages are written through the map, which is kept allocated on disk.
    let writeMap: Bool
    /// Opened with `MDB_NOSYNC`.
    let noSync: Bool
    /// The most named databases.
    let maxDatabases: UInt32
    /// Opened with `noFaultAround`: each new map is registered (`Environment.turnOffFaultAround`).
    let noFaultAround: Bool
    /// Opened with `noReadAhead` (`MDB_NORDAHEAD`).
    let noReadAhead: Bool
    /// The environment's page size, read once when the handle is made (no other thread has it yet): LMDB reads it
    /// with the meta pages, through the map, which a grow by another thread may remap meanwhile.
    let pageSize: Int
    /// True when the current map faults in one page at a time (set by `Environment.turnOffFaultAround`, under the
    /// resize lock).
    var mapsPagesSingly = false
    /// The data file's device and inode (nil: not found; then never shared).
    let key: Key?
    /// How many `Environment`s use the handle (under the registry's lock).
    var users = 1

    /// A data file's identity.
    struct Key: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    init(env: OpaquePointer, presence: FileLock?, readOnlyFlag: Bool, options: Environment.Options, key: Key?) {
        self.env = env
        self.presence = presence
        self.readOnlyFlag = readOnlyFlag
        self.writeMap = options.writeMap && !options.readOnly
        self.noSync = options.noSync
        self.maxDatabases = options.maxDatabases
        self.noFaultAround = options.noFaultAround
        self.noReadAhead = options.noReadAhead
        self.key = key
        var st = MDB_stat()
        mdb_env_stat(env, &st)
        self.pageSize = Int(st.ms_psize)
    }

    /// What an `Environment` opened with `options` asks that this handle does not do, or nil when it serves it: it
    /// serves any read-only one, and a writable one where the handle may write, through the map exactly when asked and
    /// syncing exactly as asked; either with at most the handle's named databases.
    func conflict(with options: Environment.Options) -> String? {
        if options.maxDatabases > maxDatabases {
            return "\(options.maxDatabases) named databases (the open handle has room for \(maxDatabases))"
        }
        if options.readOnly { return nil }
        if readOnlyFlag { return "writing (the open handle is read-only)" }
        if writeMap != options.writeMap {
            return writeMap ? "pages written by pwrite (the open handle writes through its map)"
                : "pages written through the map (the open handle writes by pwrite)"
        }
        if noSync != options.noSync {
            return noSync ? "a sync at each commit (the open handle does not sync)"
                : "no sync at commits (the open handle syncs each)"
        }
        return nil
    }

    /// The identity of the data file in folder `path` (nil when there is none yet: no handle can be open on it).
    static func key(of path: String) -> Key? {
        var st = stat()
        guard stat(Environment.dataFile(path), &st) == 0 else { return nil }
        return Key(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// The identity of the data file `env` has open (nil when LMDB gives no descriptor).
    static func key(of env: OpaquePointer) -> Key? {
        var fd: Int32 = -1
        var st = stat()
        guard mdb_env_get_fd(env, &fd) == 0, fstat(fd, &st) == 0 else { return nil }
        return Key(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// The handles open in this process, by folder, and the lock every open and close of a handle is made under (so
    /// no open of a folder overlaps a close of it: a close drops the process's locks on the lock file).
    static let registry = Registry()

    /// `registry`'s table and lock.
    final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var handles: [Key: EnvironmentHandle] = [:]

        /// Runs `body` under the lock with the handle open on `key`, if any; `body` returns the handle to register
        /// for `key` (a new one it opened) or nil.
        func withLock<R>(_ body: (_ handles: inout [Key: EnvironmentHandle]) throws -> R) rethrows -> R {
            lock.lock()
            defer { lock.unlock() }
            return try body(&handles)
        }

        /// One user of `handle` gone: the last closes it (and leaves the table, where it is registered).
        func release(_ handle: EnvironmentHandle) {
            withLock { handles in
                handle.users -= 1
                guard handle.users == 0 else { return }
                if let key = handle.key, handles[key] === handle { handles[key] = nil }
                mdb_env_close(handle.env)
                handle.presence?.unlock()
            }
        }
    }
}
