import CLMDB
import Foundation
import Glibc

/// An LMDB environment: one memory-mapped file holding named databases.
///
/// Transactions only exist inside the closures given to `read` and `write`: they cannot outlive the
/// call, cross a thread, or span an `await` (the closures are synchronous). LMDB allows one writer at
/// a time across all processes; `write` blocks until it is this caller's turn. The map grows on its
/// own when a write hits `MDB_MAP_FULL`: the transaction is aborted, the map doubled and the closure
/// run again, so a write closure must compute everything it writes from what it reads in the
/// transaction (it may run more than once).
package final class Environment: @unchecked Sendable {
    /// Options for opening an environment.
    package struct Options: Sendable {
        /// The initial map size in bytes: a reservation of address space only (the file grows as used),
        /// so it is large; the map still doubles on `MDB_MAP_FULL`.
        package var mapSize: Int = 64 << 30
        /// The most named databases.
        package var maxDatabases: UInt32 = 16
        /// The most concurrent read transactions across processes.
        package var maxReaders: UInt32 = 126
        /// Skip fsync at commit (`MDB_NOSYNC`): faster. A killed process loses nothing committed (the pages
        /// are in the OS cache), but a system crash (power loss, kernel panic) before the next `sync()` may
        /// lose the last transactions and, on a file system that does not keep write order, may leave the
        /// file corrupt. Call `sync()` when a bulk write ends, however it ends.
        package var noSync: Bool = false
        /// Open read-only.
        package var readOnly: Bool = false
        /// File mode for new files.
        package var mode: mode_t = 0o600
        /// Turn off the kernel's read-ahead on the map (`MDB_NORDAHEAD`): random access then maps only the
        /// pages it touches. Off by default: the log is mostly scanned in order, which read-ahead speeds up
        /// (a 1M-event scan from a cold cache ran at a fifth of the speed with it on).
        package var noReadAhead: Bool = false
        /// Write pages straight into the shared file map (`MDB_WRITEMAP`): a write transaction's dirty pages
        /// are then file-backed page cache, not heap memory the process holds until commit (LMDB keeps up to
        /// 128K dirty pages, 512 MiB, in malloc'd memory otherwise). The whole map is allocated on disk
        /// (`posix_fallocate`) when opened and when grown, so the map is sized to what is used (`mapSize` is
        /// then the initial size, and growth adds at most 1 GiB at a time): a page written through the map into
        /// a hole the disk has no room for would kill the process with SIGBUS, where an allocation that fails
        /// is an error (`ENOSPC`) before anything is written. For disposable environments (the views): a stray
        /// write through the map would damage the file, which is then rebuilt.
        package var writeMap: Bool = false
        /// Map only the page a fault touches, never 2 MiB at once (`turnOffFaultAround`): for maps kept to a
        /// resident budget by `releaseResidentPages(over:)`. The 2 MiB part holds for any map; the single page
        /// needs Linux 6.7+ and a data file this process may write: a `readOnly` environment is then opened for
        /// writing underneath and refuses writes itself (elsewhere the map keeps the kernel's fault-around).
        package var noFaultAround: Bool = false

        /// Default options.
        package init() {}
    }

    /// The LMDB environment, shared with every other `Environment` of this process on the same folder
    /// (`EnvironmentHandle`): its options are those of the first open.
    private let handle: EnvironmentHandle
    private var env: OpaquePointer { handle.env }
    private var resizeLock: ResizeLock { handle.resizeLock }
    /// A `MDB_WRITEMAP` writer's shared lock on its folder, held while it is open: other writers opening the file see
    /// it is in use (`joinWriters`), so none gives the file a size smaller than this one's map.
    private var presence: FileLock? { handle.presence }
    /// The map's address ranges once found (`mappedRanges`), guarded by `rangesLock`; dropped when remapped.
    private var cachedRanges: [Range<UInt>]? {
        get { handle.cachedRanges }
        set { handle.cachedRanges = newValue }
    }
    private var rangesLock: NSLock { handle.rangesLock }
    /// Opened with `MDB_WRITEMAP` (writable): pages are written through the map, which is kept allocated on disk.
    package var writeMap: Bool { handle.writeMap }
    /// Opened with `noFaultAround`: each new map is registered (`turnOffFaultAround`).
    private var noFaultAround: Bool { handle.noFaultAround }
    /// Opened with `noReadAhead`: the map's standing advice is `MADV_RANDOM` (LMDB's), else `MADV_NORMAL`.
    private var noReadAhead: Bool { handle.noReadAhead }
    /// False when opened with `noReadAhead`: a fault reads its one page, not the kernel's read-ahead around it.
    package var readsAhead: Bool { !noReadAhead }
    /// True when the current map faults in one page at a time (`noFaultAround` asked, and the kernel agreed).
    package private(set) var mapsPagesSingly: Bool {
        get { handle.mapsPagesSingly }
        set { handle.mapsPagesSingly = newValue }
    }
    /// The folder holding `data.mdb` and `lock.mdb`.
    package let path: String
    /// True when opened read-only.
    package let readOnly: Bool

    /// Opens (creating if needed) the environment in folder `path`, which must exist.
    ///
    /// Checks the data file against its newest meta page before any transaction touches the map (a
    /// truncated file throws `DataFileError` instead of crashing on the first read past its end), and
    /// clears the reader slots of processes that died holding a read transaction (`mdb_reader_check`).
    package init(path: String, options: Options = Options()) throws {
        self.path = path
        self.readOnly = options.readOnly
        // One handle per folder in this process (`EnvironmentHandle`): shared when it serves these options, else refused.
        var opened = false
        handle = try EnvironmentHandle.registry.withLock { handles in
            if let key = EnvironmentHandle.key(of: path), let shared = handles[key] {
                if let reason = shared.conflict(with: options) { throw HandleConflictError(path: path, reason: reason) }
                shared.users += 1
                return shared
            }
            let new = try Environment.openNewHandle(path: path, options: options)
            if let key = new.key, handles[key] == nil { handles[key] = new }
            opened = true
            return new
        }
        if opened && noFaultAround { turnOffFaultAround() }
    }

    /// Opens a new handle on folder `path` for `init` (under the registry's lock).
    private static func openNewHandle(path: String, options: Options) throws -> EnvironmentHandle {
        let file = Environment.dataFile(path)
        // A `MDB_WRITEMAP` environment: LMDB sets the data file's size to the map's at open (`ftruncate`), so an open
        // with a smaller map than another writer's would cut the file under that writer's map, whose next new page
        // would kill it (SIGBUS). Opened where another writer has it open, the map is the file's size at least.
        var options = options
        var sizeLock: FileLock?
        var presence: FileLock?
        if options.writeMap && !options.readOnly {
            sizeLock = Environment.lockSize(path)
            let joined = Environment.joinWriters(path)
            presence = joined.lock
            if !joined.alone, let size = Environment.fileSize(file) { options.mapSize = max(options.mapSize, size) }
        }
        defer { sizeLock?.unlock() }
        // A read-only environment that is to map single pages is opened without `MDB_RDONLY` where this process may
        // write its data file (LMDB then opens the file for writing, which the registration in `turnOffFaultAround`
        // needs); `readOnly` still refuses every write (`begin`). Only over a data file with a whole header: opened
        // so, LMDB would create a missing file and write the header of an empty one.
        let writable = options.readOnly && options.noFaultAround
            && (Environment.fileSize(file) ?? 0) >= 2 * Int(getpagesize()) && access(file, W_OK) == 0
        let env: OpaquePointer
        var readOnlyFlag = options.readOnly && !writable
        do {
            env = try Environment.openHandleFitting(path: path, options: options, readOnlyFlag: readOnlyFlag)
        } catch where writable {
            // Refused for writing after all (a lock file it may not write, a file system mounted read-only).
            readOnlyFlag = true
            env = try Environment.openHandleFitting(path: path, options: options, readOnlyFlag: true)
        }
        return EnvironmentHandle(env: env, presence: presence, readOnlyFlag: readOnlyFlag, options: options,
                                 key: EnvironmentHandle.key(of: env))
    }

    /// The smallest map an open under an address-space limit goes down to: below it the limit leaves too little
    /// for any command (mapping the file is still tried at its own size, if that is more).
    static let smallestFittingMap = 64 << 20

    /// `openHandle`, with a map that is only a reservation of addresses (not `MDB_WRITEMAP`: the log's is 64 GiB)
    /// halved while the process has no room for it (`ENOMEM`: an address-space limit, `ulimit -v`), down to the data
    /// file's size and `smallestFittingMap`: such a map grows as the data does (`grow`). A `MDB_WRITEMAP` map is the
    /// file's size, so it is not made smaller; when nothing fits, the error says the limit (`LMDBError.advice`).
    private static func openHandleFitting(path: String, options: Options, readOnlyFlag: Bool) throws -> OpaquePointer {
        var options = options
        let reservation = !(options.writeMap && !options.readOnly)
        let floor = max(smallestFittingMap, fileSize(dataFile(path)) ?? 0)
        while true {
            do {
                return try openHandle(path: path, options: options, readOnlyFlag: readOnlyFlag)
            } catch let error as LMDBError where error.code == ENOMEM && reservation && options.mapSize / 2 >= floor {
                options.mapSize /= 2
            }
        }
    }

    /// Creates and opens an LMDB environment for `init` (with `MDB_RDONLY` when `readOnlyFlag`), checks its data
    /// file and clears dead readers; closes it on any failure.
    private static func openHandle(path: String, options: Options, readOnlyFlag: Bool) throws -> OpaquePointer {
        var e: OpaquePointer?
        try LMDBError.check(mdb_env_create(&e), "mdb_env_create")
        guard let env = e else { throw LMDBError(code: ENOMEM, operation: "mdb_env_create") }
        do {
            try LMDBError.check(mdb_env_set_maxdbs(env, options.maxDatabases), "mdb_env_set_maxdbs")
            try LMDBError.check(mdb_env_set_maxreaders(env, options.maxReaders), "mdb_env_set_maxreaders")
            try LMDBError.check(mdb_env_set_mapsize(env, options.mapSize), "mdb_env_set_mapsize")
            var flags = UInt32(MDB_NOTLS)
            if options.noSync { flags |= UInt32(MDB_NOSYNC) }
            if readOnlyFlag { flags |= UInt32(MDB_RDONLY) }
            if options.noReadAhead { flags |= UInt32(MDB_NORDAHEAD) }
            if options.writeMap && !options.readOnly { flags |= UInt32(MDB_WRITEMAP) }
            try Environment.refuseLinkedFiles(path)
            try Environment.allocateLockFile(path, options: options)
            let rc = try DescriptorGate.opening {
                let rc = mdb_env_open(env, path, flags, options.mode)
                if rc == MDB_SUCCESS { try Environment.closeOnExec(env, path: path) }
                return rc
            }
            if rc == MDB_INVALID, let size = Environment.fileSize(Environment.dataFile(path)), size < 2 * Int(getpagesize()) {
                throw DataFileError.noHeader(file: Environment.dataFile(path), size: size)
            }
            try LMDBError.check(rc, "mdb_env_open(\(path))")
            try Environment.checkDataFileSize(env, path: path)
            if options.writeMap && !options.readOnly { try Environment.allocateMap(env, path: path) }
            var dead: Int32 = 0
            try LMDBError.check(mdb_reader_check(env, &dead), "mdb_reader_check")
            return env
        } catch {
            mdb_env_close(env)
            throw error
        }
    }

    /// Refuses a data or lock file in folder `path` that is a symbolic link or not a regular file (`LinkedFileError`),
    /// before LMDB opens either by name (following a link, creating and writing what it names). LMDB's own opens cannot
    /// take `O_NOFOLLOW`: a link put in place between this check and `mdb_env_open` is still followed, which only a
    /// process that may write the folder can do (the store's owner: a store of another user is refused before this,
    /// `StoreDirectory.checkOwner`). A file that cannot be looked at is left to LMDB, which says what fails.
    static func refuseLinkedFiles(_ path: String) throws {
        for file in [Environment.dataFile(path), path + "/lock.mdb"] {
            var st = stat()
            guard lstat(file, &st) == 0 else { continue }
            let kind = st.st_mode & S_IFMT
            if kind != S_IFREG { throw LinkedFileError(file: file, isLink: kind == S_IFLNK) }
        }
    }

    /// Marks the data file's descriptor of a just opened `env` close-on-exec: LMDB opens it without, and a command this
    /// process starts (a notify or password command) had inherited the log's and the views' data files open for writing
    /// (one that wrote to its descriptor 4 damaged the log). LMDB's lock file and meta descriptors are opened with
    /// `O_CLOEXEC` by LMDB itself. Called under `DescriptorGate.opening`.
    private static func closeOnExec(_ env: OpaquePointer, path: String) throws {
        var fd: Int32 = -1
        try LMDBError.check(mdb_env_get_fd(env, &fd), "mdb_env_get_fd")
        guard fd >= 0 else { return }
        let flags = fcntl(fd, F_GETFD)
        guard flags >= 0, fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0 else {
            throw LMDBError(code: errno, operation: "fcntl(\(Environment.dataFile(path)), FD_CLOEXEC)")
        }
    }

    /// Locks the size of the data file in folder `path` (an exclusive `flock` on `data.mdb`, created if missing, as
    /// LMDB would) for a change of a `MDB_WRITEMAP` map: its open, growth, adoption and shrinking, each of which sets
    /// the file's size. Held for one such change only (an `ftruncate` and a `posix_fallocate` of at most the growth,
    /// 1 GiB, unless a batch asks for more), so a wait for it is that long. Nil when the file cannot be opened (then
    /// the sizes chosen are the conservative ones: never below the file's).
    private static func lockSize(_ path: String) -> FileLock? { FileLock.acquire(dataFile(path), exclusive: true) }

    /// Takes the shared lock every `MDB_WRITEMAP` writer holds on its folder while open (`presence`), after trying it
    /// exclusive: `alone` when no other writer (of any process) has the file open. Called with the size lock held, so
    /// no other writer joins meanwhile. `alone` is false when the folder cannot be locked.
    private static func joinWriters(_ path: String) -> (lock: FileLock?, alone: Bool) {
        if let only = FileLock.acquire(path, exclusive: true, wait: false, create: false) {
            only.convert(exclusive: false)
            return (only, true)
        }
        return (FileLock.acquire(path, exclusive: false, create: false), false)
    }

    /// The size given to a new lock file for `maxReaders`: what LMDB makes on x86-64 (a header of two cache lines and a
    /// cache line per reader slot: 8,192 bytes for 126 readers). Not more: LMDB takes a bigger file's size as its
    /// reader table's, past `maxReaders`. On arm64, whose mutexes are bigger, LMDB adds 64 bytes to it (the last
    /// reader slot's page then has no blocks until it is used).
    static func lockFileSize(maxReaders: UInt32) -> Int { 128 + 64 * Int(max(1, maxReaders)) }

    /// Gives a new lock file in the folder at `path` disk blocks before LMDB opens it: LMDB extends a new lock file as
    /// a sparse file and writes its header through a map, which on a full disk is SIGBUS (every command that built
    /// views anew on a full disk crashed, telling the user a store file was damaged). With its blocks first, a full
    /// disk is `ENOSPC` here. A lock file already made is never touched (other processes map it at its size, their
    /// reader tables with it); nothing is done where the folder cannot be written.
    static func allocateLockFile(_ path: String, options: Options) throws {
        guard access(path, W_OK) == 0 else { return }
        let file = path + "/lock.mdb"
        let size = Environment.lockFileSize(maxReaders: options.maxReaders)
        let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, options.mode)
        // Not opened (a read-only file system, a file of another owner): LMDB opens it itself and says what fails.
        guard fd >= 0 else { return }
        defer { close(fd) }
        var st = stat()
        // Made before (by LMDB, or by this at its size): left as it is. Only an empty file, new, gets its blocks.
        guard fstat(fd, &st) == 0, st.st_size == 0 else { return }
        let rc = posix_fallocate(fd, 0, off_t(size))
        if rc != 0 { throw LMDBError(code: rc, operation: "posix_fallocate(\(file), \(size) bytes)") }
    }

    /// Gives the whole map of a `MDB_WRITEMAP` environment disk blocks (LMDB extends the file to the map size
    /// as a sparse file). A full disk is then `ENOSPC` here, not SIGBUS on a later write through the map.
    private static func allocateMap(_ env: OpaquePointer, path: String) throws {
        var fd: Int32 = -1
        try LMDBError.check(mdb_env_get_fd(env, &fd), "mdb_env_get_fd")
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        let rc = posix_fallocate(fd, 0, off_t(info.me_mapsize))
        if rc != 0 { throw LMDBError(code: rc, operation: "posix_fallocate(\(Environment.dataFile(path)), \(info.me_mapsize) bytes)") }
    }

    deinit { EnvironmentHandle.registry.release(handle) }

    /// Opens a named database (creating it with `.create`, which needs a writable environment).
    /// Call once per name at startup and keep the handle.
    package func openDatabase(_ name: String, flags: Database.Flags = []) throws -> Database {
        let create = flags.contains(.create)
        if create && !readOnly {
            return try write { txn in try txn.openDatabase(name, flags: flags) }
        }
        // A handle opened in a transaction that is aborted is closed with it: commit the read transaction. Begun as
        // every other (`begin`): a map another process grew is adopted first (`MDB_MAP_RESIZED` had failed the open).
        let txn = try begin(readOnly: true)
        defer { resizeLock.unlock() }
        let db: Database
        do {
            db = try Transaction(handle: txn, readOnly: true).openDatabase(name, flags: flags.subtracting(.create))
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
        try LMDBError.check(mdb_txn_commit(txn), "mdb_txn_commit(open \(name))")
        return db
    }

    /// Opens several named databases at once: in one read transaction when they all exist (or the
    /// environment is read-only), else in one write transaction that creates the missing ones.
    package func openDatabases(_ names: [String], flags: Database.Flags = []) throws -> [String: Database] {
        do {
            var out: [String: Database] = [:]
            for n in names { out[n] = try openDatabase(n, flags: flags.subtracting(.create)) }
            return out
        } catch let e as LMDBError where e.code == MDB_NOTFOUND && flags.contains(.create) && !readOnly {
            return try write { txn in
                var out: [String: Database] = [:]
                for n in names { out[n] = try txn.openDatabase(n, flags: flags) }
                return out
            }
        }
    }

    /// Runs `body` in a read-only transaction: a consistent snapshot of the last commit.
    /// Keep it short: a long read transaction keeps old pages from being reused.
    package func read<R>(_ body: (borrowing Transaction) throws -> R) throws -> R {
        let txn = try begin(readOnly: true)
        defer {
            mdb_txn_abort(txn)
            resizeLock.unlock()
        }
        return try body(Transaction(handle: txn, readOnly: true))
    }

    /// Begins a transaction holding the resize lock shared (the caller unlocks it after ending the
    /// transaction), adopting a map grown by another process first when LMDB asks for it.
    private func begin(readOnly: Bool) throws -> OpaquePointer {
        // A read-only environment may be open for writing underneath (`init`): writes are refused here, with
        // the error `MDB_RDONLY` gives.
        if !readOnly && self.readOnly { throw LMDBError(code: EACCES, operation: "mdb_txn_begin(write) in a read-only environment") }
        var clearedReaders = false
        while true {
            resizeLock.lockShared()
            var t: OpaquePointer?
            let rc = mdb_txn_begin(env, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &t)
            if rc == MDB_MAP_RESIZED {
                resizeLock.unlock()
                try adoptGrownMap()
                continue
            }
            if rc == MDB_READERS_FULL && !clearedReaders {
                // The reader table is full: slots of dead processes are freed, then one more try.
                resizeLock.unlock()
                clearedReaders = true
                _ = try clearStaleReaders()
                continue
            }
            guard rc == 0, let txn = t else {
                resizeLock.unlock()
                throw LMDBError(code: rc, operation: readOnly ? "mdb_txn_begin(read)" : "mdb_txn_begin(write)")
            }
            return txn
        }
    }

    /// Runs `body` in a write transaction and commits it. Any error thrown by `body` aborts it: nothing
    /// of it is written. On `MDB_MAP_FULL` the map grows and `body` runs again.
    @discardableResult
    package func write<R>(_ body: (borrowing Transaction) throws -> R) throws -> R {
        while true {
            let txn = try begin(readOnly: false)
            let result: R
            do {
                result = try body(Transaction(handle: txn, readOnly: false))
            } catch let error as LMDBError where error.isMapFull {
                mdb_txn_abort(txn)
                resizeLock.unlock()
                try grow()
                continue
            } catch {
                mdb_txn_abort(txn)
                resizeLock.unlock()
                throw error
            }
            // mdb_txn_commit frees the transaction whatever it returns: never abort after it.
            let crc = mdb_txn_commit(txn)
            resizeLock.unlock()
            if crc == MDB_MAP_FULL {
                try grow()
                continue
            }
            if crc == EIO || crc == ENOSPC, Environment.diskIsFull(path) {
                // LMDB reports a short write of its pages as EIO: on a full disk, say so.
                throw LMDBError(code: ENOSPC, operation: "mdb_txn_commit")
            }
            if crc == EIO || crc == EFBIG, Environment.fileSizeLimitReached(path) {
                // A write cut short at the file-size limit (`ulimit -f`) is EIO to LMDB too: say which limit.
                throw LMDBError(code: EFBIG, operation: "mdb_txn_commit")
            }
            try LMDBError.check(crc, "mdb_txn_commit")
            return result
        }
    }

    /// The current map size in bytes.
    package var mapSize: Int { info().me_mapsize }

    /// The size of the environment's pages in bytes.
    package var pageSize: Int { handle.pageSize }

    /// Bytes of the data file in use (last page used × page size).
    package var usedBytes: Int { (info().me_last_pgno + 1) * pageSize }

    /// `mdb_env_info`, under the resize lock held shared: LMDB reads the newest meta page through the map, which a
    /// grow by another thread (holding the lock exclusively) remaps; read through the old addresses, a page past the
    /// file's end is `SIGBUS`. Not for a caller holding the lock exclusively (`grow`: `infoHoldingLock`).
    private func info() -> MDB_envinfo {
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        return infoHoldingLock()
    }

    /// `mdb_env_info`, for a caller holding the resize lock (either way).
    private func infoHoldingLock() -> MDB_envinfo {
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        return info
    }

    /// Grows the map: doubles it, or a `MDB_WRITEMAP` map by a quarter (below). Waits until no
    /// transaction of this process is active. When the disk has no room for a grown write map, the map
    /// stays as it was and the error is `ENOSPC`.
    ///
    /// A `MDB_WRITEMAP` map grows by a quarter (at least `atLeast` bytes, at most 1 GiB unless `atLeast` asks for
    /// more): its whole size is disk, and doubling made the first write after a compacted copy (a replayed
    /// generation, whose map is exactly its pages) double the file.
    package func grow(atLeast: Int = 0) throws {
        resizeLock.lockExclusive()
        defer { resizeLock.unlock() }
        let sizeLock = writeMap ? Environment.lockSize(path) : nil
        defer { sizeLock?.unlock() }
        let old = infoHoldingLock().me_mapsize
        let step = max(atLeast, min(max(old / 4, 1 << 20), 1 << 30))
        // Whole pages, as LMDB rounds the map size to them. A write map never sets the file below its size: another
        // writer's map may reach that far (`init`).
        let page = pageSize
        let file = writeMap ? Environment.fileSize(Environment.dataFile(path)) ?? 0 : 0
        let newSize = try Environment.fitting(
            writeMap ? max((old + step + page - 1) / page * page, file) : old * 2, old: old, page: page,
            floor: writeMap ? max(file, old + atLeast) : 0, path: path)
        forgetRanges()
        try LMDBError.check(mdb_env_set_mapsize(env, newSize), "mdb_env_set_mapsize(\(newSize))")
        if noFaultAround { turnOffFaultAround() }
        guard writeMap else { return }
        do {
            try Environment.allocateMap(env, path: path)
        } catch {
            // The old map (or the file as it was, as far as another writer had allocated it) is allocated: writes stay
            // within it (a full map is MDB_MAP_FULL again). That size is mapped anew, maybe elsewhere: the ranges found
            // for the grown map go with it. Kept, they had pointed at addresses the kernel then gave to other mappings
            // (the heap, a thread's stack, another environment's map), which the next release of resident pages
            // (`MADV_DONTNEED`) zeroed: `verify --views` on a full disk died of `free(): invalid pointer` (2026-12-07).
            forgetRanges()
            let rc = mdb_env_set_mapsize(env, max(old, file))
            if noFaultAround { turnOffFaultAround() }
            if rc != 0 { throw LMDBError(code: rc, operation: "mdb_env_set_mapsize(\(max(old, file)), back from a growth the disk had no room for)") }
            throw error
        }
    }

    /// The size a map of `old` bytes grows to: `wanted` where the process's address space has room for it, else
    /// the most of a quarter more or 16 MiB more that fits and is at least `floor` (under an address-space limit,
    /// `ulimit -v`); none fitting is `ENOMEM`, with the map left as it is. LMDB must never be asked for a map it
    /// cannot make (``AddressSpace``).
    private static func fitting(_ wanted: Int, old: Int, page: Int, floor: Int, path: String) throws -> Int {
        if wanted <= old || AddressSpace.hasRoom(forMap: wanted, replacing: old) { return wanted }
        let smaller = [old + old / 4, old + (16 << 20)].map { max(($0 + page - 1) / page * page, floor) }
        if let fit = smaller.first(where: { $0 > old && $0 < wanted && AddressSpace.hasRoom(forMap: $0, replacing: old) }) { return fit }
        throw LMDBError(code: ENOMEM, operation: "growing the map of \(dataFile(path)) from \(old >> 20) MiB")
    }

    /// True when the map's address ranges this environment acts on (`releaseResidentPages`, the read-ahead advice,
    /// the fault-around registration) are those the kernel shows for its data file now: for tests of the remaps.
    package var knownRangesAreCurrent: Bool {
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        let known = mappedRanges()
        guard let file = handle.key, let maps = Environment.readProcFile("/proc/self/maps") else { return false }
        return known == Environment.ranges(in: maps, device: file.device, inode: file.inode)
    }

    /// Grows the map until `room` bytes fit past the part in use, so a write transaction of about that size
    /// does not hit `MDB_MAP_FULL` (and redo its work). Call outside any transaction of this process.
    ///
    /// The room is measured under the resize lock: LMDB reads it from the meta pages, which lie in the map, and a grow
    /// by another thread meanwhile (two threads publishing, each reserving before its writes) remaps them; read
    /// through the old map's addresses, a page past the file's end is `SIGBUS`.
    package func reserve(room: Int) throws {
        while true {
            resizeLock.lockShared()
            let info = infoHoldingLock()
            let free = info.me_mapsize - (info.me_last_pgno + 1) * pageSize
            resizeLock.unlock()
            guard free < room else { return }
            try grow(atLeast: room - free)
        }
    }

    /// Gives back a `MDB_WRITEMAP` map's room past the pages in use: such a map is its file's size, so the room
    /// a fold reserved for its batches (`reserve(room:)`: up to 1 GiB) would otherwise stay on disk after it. LMDB
    /// rounds a map smaller than its data up to the last page in use and truncates the file to that. Only where no
    /// other writer (of this process or another) has the file open (`presence`): a writer elsewhere would go on
    /// writing into its bigger map, past the file's end; otherwise the room stays, and the map as it is. Call outside
    /// any transaction of this process; a map without `MDB_WRITEMAP` is left as it is.
    package func shrinkToData() throws {
        guard writeMap, !readOnly else { return }
        resizeLock.lockExclusive()
        defer { resizeLock.unlock() }
        let sizeLock = Environment.lockSize(path)
        defer { sizeLock?.unlock() }
        guard let presence, presence.convert(exclusive: true) else { return }
        defer { presence.convert(exclusive: false) }
        forgetRanges()
        try LMDBError.check(mdb_env_set_mapsize(env, pageSize), "mdb_env_set_mapsize(the data's size)")
        if noFaultAround { turnOffFaultAround() }
    }

    /// Adopts a map size grown by another process.
    private func adoptGrownMap() throws {
        resizeLock.lockExclusive()
        defer { resizeLock.unlock() }
        let sizeLock = writeMap ? Environment.lockSize(path) : nil
        defer { sizeLock?.unlock() }
        // A write map takes the file's size (the largest map of its writers: `init`); any other map the size the
        // newest meta page records (0), unless the process's address space is limited (`ulimit -v`): then the pages
        // in use, doubled where there is room for that, since the other process's map may be more than fits here.
        // LMDB raises either to the pages in use; a size with no room is refused before LMDB is asked (``AddressSpace``).
        var size = writeMap ? Environment.fileSize(Environment.dataFile(path)) ?? 0 : 0
        let info = infoHoldingLock()
        let old = info.me_mapsize
        if writeMap {
            if size > old && !AddressSpace.hasRoom(size - old) {
                throw LMDBError(code: ENOMEM, operation: "mapping \(Environment.dataFile(path)) at \(size >> 20) MiB, grown by another process")
            }
        } else if AddressSpace.limit != nil {
            let used = (info.me_last_pgno + 1) * pageSize
            size = try Environment.fitting(max(used * 2, old), old: old, page: pageSize, floor: used, path: path)
        }
        forgetRanges()
        try LMDBError.check(mdb_env_set_mapsize(env, size), "mdb_env_set_mapsize(\(size))")
        if noFaultAround { turnOffFaultAround() }
        if writeMap { try Environment.allocateMap(env, path: path) }
    }

    /// Drops the map's ranges found before a remap (call with the resize lock held exclusively).
    private func forgetRanges() {
        rangesLock.lock()
        cachedRanges = nil
        rangesLock.unlock()
    }

    /// The file-backed pages this process keeps mapped (all maps, its code and libraries included, ~20-30 MiB)
    /// before `releaseResidentPages(over:)` unmaps a map's: the resident size's share for mapped data. 64 MiB
    /// with the checks' frequencies (every 64 records or blobs read, every 2 ms of a big write) keeps a 100K-message
    /// replay under 200 MB in all (96 MiB left it at ~290 MiB: the overshoot between checks adds to the budget).
    /// Pages unmapped and touched again cost faults: `MAILSTORE_MAPPED_BUDGET_MB` (32 to 1,048,576) trades
    /// memory for speed on a machine that has it (as `XAPIAN_FLUSH_THRESHOLD` does for Xapian).
    package static let residentFileBudget = residentFileBudget(ProcessInfo.processInfo.environment["MAILSTORE_MAPPED_BUDGET_MB"])
    static let defaultResidentFileBudget = 64 << 20
    /// The anonymous memory (`/proc/self/statm`'s resident less its shared pages) a process may hold before its
    /// budget for mapped pages shrinks by what it holds past this (`mappedBudget(_:anonymous:)`).
    static let anonymousAllowance = 112 << 20
    /// The least a budget for mapped pages shrinks to (the least `MAILSTORE_MAPPED_BUDGET_MB` may set).
    static let leastResidentFileBudget = 32 << 20

    /// The mapped pages `budget` allows while the process holds `anonymous` bytes of anonymous memory: all of it up
    /// to `anonymousAllowance`, then less by what it holds past that, down to `leastResidentFileBudget`. So mapped
    /// and anonymous pages together stay under `budget` + `anonymousAllowance` (176 MiB with the defaults) while the
    /// anonymous ones stay under that less 32 MiB, plus what is mapped between two checks. The folds' own buffers
    /// peak at different moments from run to run (a 1M-message `replay`: 116-118 MiB anonymous in most runs, 125 in
    /// one, which with 66 MiB mapped made 191 MiB, the aim's line, 2026-12-05); the budget gives way then.
    package static func mappedBudget(_ budget: Int, anonymous: Int) -> Int {
        let over = anonymous - anonymousAllowance
        guard over > 0 else { return budget }
        return max(min(budget, leastResidentFileBudget), budget - over)
    }

    /// The budget `MAILSTORE_MAPPED_BUDGET_MB` sets (`text`: whole MiB, 32 to 1 TiB), or the default when it is
    /// unset or not such a number (with a warning on stderr, once; the value itself is not echoed).
    static func residentFileBudget(_ text: String?) -> Int {
        guard let text else { return defaultResidentFileBudget }
        guard let mb = Int(text.trimmingCharacters(in: .whitespaces)), (32...(1 << 20)).contains(mb) else {
            var warning = "mailstore: warning: MAILSTORE_MAPPED_BUDGET_MB is not a whole number of MiB from 32 to 1048576: using 64\n"
            warning.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            return defaultResidentFileBudget
        }
        return mb << 20
    }

    /// The process's resident file-backed and shared pages in bytes (`/proc/self/statm`), or nil.
    package static func residentFileBytes() -> Int? { residentBytes()?.shared }

    /// The process's resident pages in bytes (`/proc/self/statm`): all of them, and the file-backed and shared ones
    /// among them (the rest is its anonymous memory); nil where statm cannot be read.
    ///
    /// Called every few hundred puts and every 2 ms by releasing threads: the file stays open (one descriptor
    /// for the process) and is read again from offset 0 into a stack buffer, parsed by hand. Opening, reading
    /// into an array and splitting it each time was a quarter of a bulk append's writing thread in the log
    /// bench's profile.
    package static func residentBytes() -> (resident: Int, shared: Int)? {
        let fd = statmDescriptor
        guard fd >= 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buf -> (resident: Int, shared: Int)? in
            let n = pread(fd, buf.baseAddress, buf.count, 0)
            guard n > 0, let pages = residentPages(statm: UnsafeBufferPointer(rebasing: buf[0..<n])) else { return nil }
            // A count of 18 digits times a page could pass Int's range: nil then, as for a count not read.
            guard !pages.resident.multipliedReportingOverflow(by: systemPageSize).overflow,
                  !pages.shared.multipliedReportingOverflow(by: systemPageSize).overflow else { return nil }
            return (pages.resident * systemPageSize, pages.shared * systemPageSize)
        }
    }

    /// The third field of a `/proc/<pid>/statm` text (`size resident shared text lib data dt`, in pages): the
    /// resident file-backed and shared pages. Nil unless the second and third fields are 1 to 18 decimal digits.
    package static func residentSharedPages(statm: UnsafeBufferPointer<UInt8>) -> Int? { residentPages(statm: statm)?.shared }

    /// The second and third fields of a `/proc/<pid>/statm` text, in pages: the resident pages, and the file-backed
    /// and shared ones among them. Nil unless each is 1 to 18 decimal digits (no page count comes near, and the
    /// values cannot overflow).
    package static func residentPages(statm: UnsafeBufferPointer<UInt8>) -> (resident: Int, shared: Int)? {
        var field = 0, values = (0, 0), digits = 0
        for b in statm {
            if b == UInt8(ascii: " ") || b == UInt8(ascii: "\n") {
                guard field == 0 || digits > 0 else { return nil }
                if field == 2 { break }
                field += 1
                digits = 0
                continue
            }
            guard field >= 1 else { continue }
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9"), digits < 18 else { return nil }
            let digit = Int(b - UInt8(ascii: "0"))
            if field == 1 { values.0 = values.0 * 10 + digit } else { values.1 = values.1 * 10 + digit }
            digits += 1
        }
        guard field == 2, digits > 0 else { return nil }
        return (values.0, values.1)
    }

    /// `/proc/self/statm`, open for the life of the process (negative when it cannot be opened).
    private static let statmDescriptor: Int32 = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
    /// The system's page size.
    private static let systemPageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Unmaps the map's resident pages (`releaseResidentPages()`) when the process's resident file pages
    /// exceed `budget`, less what its anonymous memory holds past `anonymousAllowance` (`mappedBudget`); returns
    /// whether it did. What frequent callers use: pages that fit stay mapped (a page unmapped and touched again
    /// costs a fault, which adds up on the upper levels of big B-trees).
    @discardableResult
    package func releaseResidentPages(over budget: Int = Environment.residentFileBudget) -> Bool {
        if let bytes = Environment.residentBytes(),
           bytes.shared <= Environment.mappedBudget(budget, anonymous: max(0, bytes.resident - bytes.shared)) { return false }
        releaseResidentPages()
        return true
    }

    /// Runs `body` with the kernel's read-ahead off on this map (`MADV_RANDOM`: a fault reads its one page from
    /// the disk, not the read-ahead window around it), then the map's standing advice again. For reads of records
    /// that lie scattered in a big file, where each fault would otherwise read up to `read_ahead_kb` of other data
    /// (8 MiB on this project's test machine: a past look's 8,191 events read ~1 GB of a 1M-message log). The
    /// advice is the map's, so another thread's reads meanwhile go without read-ahead too (slower, not wrong); a
    /// map grown meanwhile starts with the standing advice.
    package func withoutReadAhead<T>(_ body: () throws -> T) rethrows -> T {
        try withAdvice(MADV_RANDOM, body)
    }

    /// Runs `body` with the kernel's read-ahead on this map, and more of it (`MADV_SEQUENTIAL`), then the map's
    /// standing advice again. For a walk of whole B-trees whose pages lie in order in the file (a generation
    /// published with `MDB_APPEND`): on a map opened without read-ahead (`noReadAhead`) each of its pages was
    /// otherwise a read of its own from the disk (a cold `replay --view threads` at 100K messages waited for
    /// 66,000 of them while copying the other views). The same caveats as `withoutReadAhead`.
    package func withReadAhead<T>(_ body: () throws -> T) rethrows -> T {
        try withAdvice(MADV_SEQUENTIAL, body)
    }

    /// Runs `body` with the kernel's usual read-ahead on this map (`MADV_NORMAL`), then the map's standing advice
    /// again: for a scan of the whole log through a map opened for lookups (`noReadAhead`), such as a rebuild of the
    /// views started by a read-only command (one page per fault, a 100K rebuild from a cold cache took 12.95 s
    /// instead of 8.58 s). On a map that reads ahead already, nothing changes. The same caveats as `withoutReadAhead`.
    package func withUsualReadAhead<T>(_ body: () throws -> T) rethrows -> T {
        guard noReadAhead else { return try body() }
        return try withAdvice(MADV_NORMAL, body)
    }

    /// Runs `body`, which reads `bytes` (a value inside this map) in order, with the kernel's read-ahead on those
    /// pages (`MADV_SEQUENTIAL` on their range alone), then the map's standing advice on them again: for a big value (a
    /// blob in overflow pages) read through a map without read-ahead, whose every page would otherwise fault and wait
    /// for a read of its own (a 15 MB blob from a cold cache: 3,769 faults). Other values keep the map's advice; empty
    /// `bytes`, or a map that reads ahead already, run `body` alone.
    package func withReadAhead<T>(over bytes: UnsafeRawBufferPointer, _ body: () throws -> T) rethrows -> T {
        guard noReadAhead, let base = bytes.baseAddress, !bytes.isEmpty else { return try body() }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = Int(bitPattern: base) & ~(page - 1)
        let length = Int(bitPattern: base) + bytes.count - start
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), length, MADV_SEQUENTIAL)
        defer { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), length, MADV_RANDOM) }
        return try body()
    }

    private func withAdvice<T>(_ advice: Int32, _ body: () throws -> T) rethrows -> T {
        advise(advice)
        defer { advise(noReadAhead ? MADV_RANDOM : MADV_NORMAL) }
        return try body()
    }

    /// `madvise` on every range of the map, under the resize lock (no remap meanwhile).
    private func advise(_ advice: Int32) {
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        for range in mappedRanges() {
            guard let addr = UnsafeMutableRawPointer(bitPattern: range.lowerBound) else { continue }
            _ = madvise(addr, Int(range.upperBound - range.lowerBound), advice)
        }
    }

    /// Unmaps the map's resident pages from this process (`MADV_DONTNEED` on the shared, read-only map:
    /// the data stays in the file and the page cache, and is mapped again on the next access). Bulk
    /// writers call it now and then so their resident size does not grow with the store.
    package func releaseResidentPages() {
        advise(MADV_DONTNEED)
    }

    /// Turns off the kernel's fault-around on this environment's map: a fault then maps the one page it touches.
    /// And no fault maps a whole 2 MiB folio of the page cache at once (`MADV_NOHUGEPAGE`: files written in big
    /// writes, such as the log by an import, are cached in folios up to that size).
    ///
    /// A read fault on a shared file map otherwise also maps the page's neighbours that are in the page cache (up
    /// to 64 KiB, `fault_around_bytes`), and `MADV_RANDOM` does not change that. In a B-tree read at random, the
    /// neighbours are other subtrees' pages: at a million messages, where the views' pages are all cached (they
    /// were just written), the folding thread mapped ~16 pages per fault and, between two releases of the
    /// releasing thread (2 ms, more when the other threads keep both cores busy), hundreds of MiB.
    ///
    /// The kernel skips fault-around on a map registered with a userfaultfd in write-protect mode. The
    /// registration here protects nothing (no page is ever write-protected, and with asynchronous write-protect
    /// faults, Linux 6.7+, none would wait on a reader): it only changes how faults map. User-mode-only, so no
    /// privilege is needed. One descriptor serves the process, open until it ends. Where the kernel refuses
    /// (older, a seccomp filter, a read-only file), the map keeps fault-around: more resident, nothing else.
    /// Called when the map is made (open, grow, adopting a map grown by another process).
    private func turnOffFaultAround() {
        let fd = Environment.faultAroundDescriptor
        let ranges = mappedRanges()
        var registered = fd >= 0 && !ranges.isEmpty
        for range in ranges {
            if let addr = UnsafeMutableRawPointer(bitPattern: range.lowerBound) {
                _ = madvise(addr, Int(range.upperBound - range.lowerBound), MADV_NOHUGEPAGE)
            }
            if fd >= 0 && mailstore_uffd_register_wp(fd, range.lowerBound, UInt64(range.upperBound - range.lowerBound)) != 0 {
                registered = false
            }
        }
        mapsPagesSingly = registered
    }

    /// The process's userfaultfd for `turnOffFaultAround`, or a negative errno when the kernel has none to give.
    private static let faultAroundDescriptor: Int32 = mailstore_uffd_open_wp_async()

    /// Nil when this kernel lets `Options.noFaultAround` turn fault-around off (for maps of files this process may
    /// write); else why not (the error of the userfaultfd it refused), for diagnostics (`mailstore stats`).
    package static var faultAroundRefusal: String? {
        let fd = faultAroundDescriptor
        return fd >= 0 ? nil : "userfaultfd with asynchronous write-protect faults: " + String(cString: strerror(-fd))
    }

    /// The address ranges of this environment's map (call with the resize lock held): found once in
    /// `/proc/self/maps` (LMDB reports its map address only for `MDB_FIXEDMAP` environments) and kept until
    /// the map is remapped (`grow`, `adoptGrownMap`). The mapping is the one of `data.mdb`'s device and inode,
    /// not of its path: the kernel shows the path resolved (symlinks), renamed (a generation built aside) or
    /// marked deleted (an old generation still open).
    private func mappedRanges() -> [Range<UInt>] {
        rangesLock.lock()
        defer { rangesLock.unlock() }
        if let cachedRanges { return cachedRanges }
        // The data file's identity, found once when the handle was opened (`EnvironmentHandle.key`).
        guard let file = handle.key, let maps = Environment.readProcFile("/proc/self/maps") else { return [] }
        let found = Environment.ranges(in: maps, device: file.device, inode: file.inode)
        if !found.isEmpty { cachedRanges = found }
        return found
    }

    /// The ranges of the mappings of the file `device`/`inode` in the text of a `/proc/<pid>/maps` file.
    static func ranges(in maps: [UInt8], device: UInt64, inode: UInt64) -> [Range<UInt>] {
        // glibc's encoding of a dev_t: major in bits 8-19 and 32-63, minor in bits 0-7 and 12-31.
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~UInt64(0xFFF))
        let minor = (device & 0xFF) | ((device >> 12) & ~UInt64(0xFF))
        var out: [Range<UInt>] = []
        for line in maps.split(separator: UInt8(ascii: "\n")) {
            // address perms offset dev inode [path]
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, UInt64(String(decoding: fields[4], as: UTF8.self)) == inode else { continue }
            let dev = fields[3].split(separator: UInt8(ascii: ":"))
            guard dev.count == 2, UInt64(String(decoding: dev[0], as: UTF8.self), radix: 16) == major,
                  UInt64(String(decoding: dev[1], as: UTF8.self), radix: 16) == minor else { continue }
            let bounds = fields[0].split(separator: UInt8(ascii: "-"))
            guard bounds.count == 2, let lo = UInt(String(decoding: bounds[0], as: UTF8.self), radix: 16),
                  let hi = UInt(String(decoding: bounds[1], as: UTF8.self), radix: 16), hi > lo else { continue }
            out.append(lo..<hi)
        }
        return out
    }

    /// The whole of a `/proc` file, read until its end (its size is 0 to `stat`, and one `read` returns at most
    /// a page of it: `String(contentsOfFile:)` got the first ~4 KiB of `/proc/self/maps` only, so once other
    /// mappings came first the map was never found and never unmapped). At most `limit` bytes (nil past it).
    static func readProcFile(_ path: String, limit: Int = 16 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { return nil }
        }
    }

    /// Frees the reader-table slots of processes that ended while holding a read transaction (a killed
    /// reader otherwise pins the pages of its snapshot, and its slot, until the lock file is recreated).
    /// Returns how many were freed. Done at open and when the table is full (`MDB_READERS_FULL`).
    @discardableResult
    package func clearStaleReaders() throws -> Int {
        var dead: Int32 = 0
        try LMDBError.check(mdb_reader_check(env, &dead), "mdb_reader_check")
        return Int(dead)
    }

    /// The reader-table slots in use (live and stale), read from the lock file.
    package var readersInUse: Int { Int(info().me_numreaders) }

    /// Throws `DataFileError` when the data file is shorter than its newest meta page says (reading the
    /// missing pages through the map would be a SIGBUS). Only the meta pages are read, through `pread` by
    /// `mdb_env_open`; `mdb_env_info` and `mdb_env_stat` read them from the map's first two pages, which
    /// `mdb_env_open` has checked are in the file.
    private static func checkDataFileSize(_ env: OpaquePointer, path: String) throws {
        var fd: Int32 = -1
        try LMDBError.check(mdb_env_get_fd(env, &fd), "mdb_env_get_fd")
        var fileStat = stat()
        guard fstat(fd, &fileStat) == 0 else { throw LMDBError(code: errno, operation: "fstat(data.mdb)") }
        var info = MDB_envinfo()
        try LMDBError.check(mdb_env_info(env, &info), "mdb_env_info")
        var st = MDB_stat()
        try LMDBError.check(mdb_env_stat(env, &st), "mdb_env_stat")
        let expected = (info.me_last_pgno + 1) * Int(st.ms_psize)
        let size = Int(fileStat.st_size)
        if size < expected {
            throw DataFileError.truncated(file: Environment.dataFile(path), size: size, expected: expected)
        }
    }

    /// True when the data file in folder `path` has reached this process's file-size limit (`ulimit -f`,
    /// `RLIMIT_FSIZE`; within 1 MiB of it): a write past it is cut short (EIO to LMDB) or fails with EFBIG.
    static func fileSizeLimitReached(_ path: String) -> Bool {
        var r = rlimit()
        guard getrlimit(Int32(RLIMIT_FSIZE.rawValue), &r) == 0, r.rlim_cur != rlim_t.max, r.rlim_cur < UInt(Int.max),
              let size = fileSize(dataFile(path)) else { return false }
        return size >= Int(r.rlim_cur) - (1 << 20)
    }

    /// True when the file system holding `path` has less than 1 MiB free for this user: a failed write
    /// there is taken for a full disk.
    static func diskIsFull(_ path: String) -> Bool {
        guard let free = freeBytes(at: path) else { return false }
        return free < 1 << 20
    }

    /// The bytes free for this user on the file system holding `path` (saturating), or nil when it cannot be told.
    package static func freeBytes(at path: String) -> Int? {
        var st = statvfs()
        guard statvfs(path, &st) == 0 else { return nil }
        let (bytes, over) = Int(clamping: st.f_bavail).multipliedReportingOverflow(by: Int(clamping: st.f_frsize))
        return over ? Int.max : bytes
    }

    /// The size of `file` in bytes, or nil when it cannot be read.
    package static func fileSize(_ file: String) -> Int? {
        var st = stat()
        return stat(file, &st) == 0 ? Int(st.st_size) : nil
    }

    /// The data file of the environment in folder `path`.
    package static func dataFile(_ path: String) -> String {
        path.hasSuffix("/") ? path + "data.mdb" : path + "/data.mdb"
    }

    /// Flushes buffers to disk (useful with `noSync`).
    package func sync() throws {
        try LMDBError.check(mdb_env_sync(env, 1), "mdb_env_sync")
    }

    /// Writes a compacted copy of the environment into the empty folder `path` (its `data.mdb`, mode 0600). One
    /// read transaction: another thread may write meanwhile (the map cannot be resized under the copy: it holds
    /// the resize lock shared).
    ///
    /// The file is opened here rather than by `mdb_env_copy2`, which creates it with mode 0666 less the umask, and
    /// with `O_DIRECT` (which `mdb_env_copy2` always uses) only where this kernel refuses to turn fault-around off
    /// (`faultAroundRefusal`). There a copy that is folded into (`replay --view`, not `durable`) keeps its pages out
    /// of the page cache: a fold's read faults on cached pages would map their cached neighbours too (16 pages each),
    /// faster than `ResidentPageReleaser` unmaps them (at 100K messages: `replay --view threads` 4.6-5.7 s at 210-227
    /// MiB with cached pages, 7.2 s at 150 MiB with `O_DIRECT`). Where fault-around is off, the copy goes through the
    /// page cache: written with `O_DIRECT`, every page the fold and the publishing copy read came from the disk, one
    /// 4 KiB read per fault (at 100K messages `replay --view outbox` 5.3 s, 4 of them reading the copy back; 1.4 s
    /// through the page cache, at the same 79 MiB peak).
    ///
    /// `durable`: the copy is on disk (fsync) when this returns, for a copy that will serve rather than be read
    /// once. It goes through the page cache: its readers are queries, and written with `O_DIRECT` each first read of
    /// a page waited on the disk (after a replay, the first completion of a 7-letter prefix read ~100 pages from
    /// disk: ~5 ms, 0.2 ms once cached).
    package func copy(to path: String, durable: Bool = false) throws {
        let file = Environment.dataFile(path)
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LMDBError(code: errno, operation: "open(\(file)) for a copy") }
        defer { close(fd) }
        // As `mdb_env_copy2` does: ignored where the file system refuses it.
        let flags = fcntl(fd, F_GETFL)
        if !durable, Environment.faultAroundRefusal != nil, flags != -1 { _ = fcntl(fd, F_SETFL, flags | mailstore_o_direct()) }
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        try LMDBError.check(mdb_env_copyfd2(env, fd, UInt32(MDB_CP_COMPACT)), "mdb_env_copyfd2(\(file))")
        if durable, fsync(fd) != 0 { throw LMDBError(code: errno, operation: "fsync(\(file))") }
    }
}
