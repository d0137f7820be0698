import CSQLite
import CSQLiteFolderVFS
import Glibc

/// One SQLite connection, used from one thread at a time (the search index serialises access).
/// Every call's result code is checked; failures become `SearchIndexError.sqlite`.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    /// What the progress handler checks (`bounded`'s budget, `deadline`); the handler is installed only while one is
    /// set.
    private let limits: UnsafeMutablePointer<mailstore_sqlite_limits> = {
        let p = UnsafeMutablePointer<mailstore_sqlite_limits>.allocate(capacity: 1)
        p.initialize(to: mailstore_sqlite_limits(left: 0, counting: 0, budget_end: 0, deadline: 0))
        return p
    }()

    /// When the statements run on this connection are interrupted (`mailstore_monotonic_ns`; 0: never): checked by
    /// the progress handler, and by an interrupter armed over each `watched` call.
    var deadline: UInt64 {
        get { limits.pointee.deadline }
        set {
            limits.pointee.deadline = newValue
            installLimits()
        }
    }

    /// Where this connection's waits for a lock end (`waitDeadline`): read by its busy handler and by `CSQLiteFolderVFS`'s
    /// waits for the switch lock; freed after the connection is closed.
    private let waitEnd: UnsafeMutablePointer<UInt64> = {
        let p = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        p.initialize(to: 0)
        return p
    }()

    /// When this connection's waits for a lock end (`mailstore_monotonic_ns`; 0: none, SQLite's busy timeout of
    /// `busyTimeoutMilliseconds`, each wait for the switch lock 2 s): a search's time limit, so that a rebuild putting its
    /// file in place (new transactions wait while it waits for those under way) or another process's write holds it no
    /// longer than that; a lock not had by then is `SQLITE_BUSY`. Until the fourteenth round a search waited up to 30 s
    /// (and its open 15 tries of 2 s) past its limit.
    var waitDeadline: UInt64 {
        get { waitEnd.pointee }
        set {
            waitEnd.pointee = newValue
            mailstore_sqlite_waits(handle, waitEnd, Self.busyTimeoutMilliseconds)
        }
    }

    /// SQLite's busy timeout of a connection with no `waitDeadline`.
    static let busyTimeoutMilliseconds: Int32 = 30_000

    /// Whether `deadline` is set and has passed.
    var isPastDeadline: Bool { deadline != 0 && mailstore_monotonic_ns() >= deadline }

    /// Opens (creating when `create`) the database at `path`; a new file gets mode 0600. With `switchLock` (a lock
    /// file's path), every transaction holds that lock shared, and one on a file renamed over since it was opened is
    /// refused with `SearchIndexError.replaced` (`CSQLiteFolderVFS`): whoever renames a file into place at `path`
    /// holds the lock exclusively (`SearchIndex.rebuild`). `waitDeadline`: when its waits for a lock end, the open's too.
    init(path: String, create: Bool, readOnly: Bool = false, switchLock: String? = nil, waitDeadline: UInt64 = 0) throws(SearchIndexError) {
        self.path = path
        if create, !readOnly {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd < 0 { throw .io(path, String(cString: strerror(errno))) }
            fchmod(fd, 0o600)
            close(fd)
        }
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
        // The connection's temporary files (an index's sort, temporary tables) are made beside the file, not in the
        // system's temporary folder: they hold keys of the store's mail (`CSQLiteFolderVFS`).
        let folder = SQLiteConnection.folder(of: path)
        var vfs = [CChar](repeating: 0, count: 4_096)
        let registered = mailstore_sqlite_folder_vfs(folder, switchLock, &vfs, Int32(vfs.count))
        guard registered == SQLITE_OK else {
            throw .sqlite(call: "temporary files in \(folder)", code: registered, message: String(cString: sqlite3_errstr(registered)))
        }
        waitEnd.pointee = waitDeadline
        // The open's wait for the switch lock ends there too (the file is opened under it, `CSQLiteFolderVFS`).
        mailstore_sqlite_folder_vfs_waits_end(waitEnd)
        let rc = sqlite3_open_v2(path, &db, flags, vfs)
        mailstore_sqlite_folder_vfs_waits_end(nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close(db) }
            if rc == mailstore_sqlite_dbmoved() { throw .replaced(file: path) }
            throw .sqlite(call: "open \(path)", code: rc, message: message)
        }
        handle = db
        mailstore_sqlite_waits(db, waitEnd, Self.busyTimeoutMilliseconds)
        // SQLite's default limit on a statement's parameters, whatever the library was built with (Debian's:
        // 250,000): the statements made here are sized to it (`QueryCompiler.maxPastRowids`).
        sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, SQLiteConnection.maxParameters)
    }

    /// The folder `path` is in (`.` for a bare file name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The most parameters a statement may have (SQLite's default, `SQLITE_MAX_VARIABLE_NUMBER`).
    static let maxParameters: Int32 = 32_766

    deinit {
        sqlite3_close_v2(handle)
        limits.deallocate()
        waitEnd.deallocate()
    }

    func check(_ rc: Int32, _ call: @autoclosure () -> String) throws(SearchIndexError) {
        if rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW {
            // The file was renamed over since it was opened (a rebuild put in place): refused by the switch lock's
            // guard, or by SQLite itself as a write begins.
            if sqlite3_extended_errcode(handle) == mailstore_sqlite_dbmoved() || mailstore_sqlite_file_moved(handle) != 0 {
                throw .replaced(file: path)
            }
            throw .sqlite(call: call(), code: rc, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Runs one or more statements without results.
    func exec(_ sql: String) throws(SearchIndexError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), String(sql.prefix(80)))
    }

    func prepare(_ sql: String) throws(SearchIndexError) -> SQLiteStatement {
        var stmt: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil), "prepare \(sql.prefix(80))")
        guard let stmt else { throw .sqlite(call: "prepare \(sql.prefix(80))", code: SQLITE_MISUSE, message: "empty statement") }
        return SQLiteStatement(stmt, connection: self, sql: sql)
    }

    /// Runs `body` in one write transaction (IMMEDIATE: the write lock is taken up front); rolls back on error.
    func transaction<R>(_ body: () throws -> R) throws -> R {
        try exec("BEGIN IMMEDIATE")
        do {
            let r = try body()
            try exec("COMMIT")
            return r
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }

    /// SQLite virtual machine instructions between two checks of `bounded`'s budget and the deadline.
    static let progressEvery: Int32 = 256

    private func installLimits() {
        let l = limits.pointee
        let watching = l.counting != 0 || l.budget_end != 0 || l.deadline != 0
        mailstore_sqlite_watch(handle, watching ? Self.progressEvery : 0, limits)
    }

    /// Runs `body` with any statement interrupted once the statements it runs have taken about `instructions`
    /// SQLite virtual machine instructions together, or, given `seconds`, once that long has passed (checked by the
    /// progress handler and by an interrupter, which stops FTS5 inside one long call); nil when that happened (the
    /// caller resets its statement). Past `deadline` it throws the interrupt instead.
    func bounded<R>(instructions: Int, seconds: Double? = nil, _ body: () throws -> R) throws -> R? {
        let end = seconds.map { mailstore_monotonic_ns() + UInt64(max(0, $0) * 1e9) } ?? 0
        limits.pointee.left = CLongLong(max(1, instructions / Int(Self.progressEvery)))
        limits.pointee.counting = 1
        limits.pointee.budget_end = end
        installLimits()
        let interrupter = end == 0 ? nil : SQLiteInterrupter(handle: handle, at: end)
        defer {
            interrupter?.disarm()
            limits.pointee.counting = 0
            limits.pointee.budget_end = 0
            installLimits()
        }
        do {
            return try body()
        } catch let error as SearchIndexError {
            if error.isInterrupt, !isPastDeadline,
               limits.pointee.left < 0 || (end != 0 && mailstore_monotonic_ns() >= end) { return nil }
            throw error
        }
    }

    /// Runs `body` with an interrupter armed for `deadline`, when one is set (the progress handler alone misses
    /// FTS5's long calls: `SQLiteInterrupter`).
    func watched<R>(_ body: () throws -> R) rethrows -> R {
        guard deadline != 0 else { return try body() }
        let interrupter = SQLiteInterrupter(handle: handle, at: deadline)
        defer { interrupter.disarm() }
        return try body()
    }

    /// The rowid of the last insert.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }
    /// Rows changed since the connection was opened (FTS5's `merge` tells by it whether it found work).
    var totalChanges: Int { Int(sqlite3_total_changes(handle)) }
}

/// A prepared statement: bind by 1-based index, step, read columns by 0-based index.
final class SQLiteStatement {
    let stmt: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String

    init(_ stmt: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.stmt = stmt
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(stmt) }

    /// Resets the statement and binds `values`.
    ///
    /// A text is handed to SQLite from the string's own UTF-8 bytes with its length, up to its first NUL byte (what a
    /// C string of it holds, as SQLite read it before): converting each to a C string had allocated and copied it
    /// first, and SQLite then measured and copied it again. The previous values are dropped by binding over them
    /// (`sqlite3_clear_bindings` only when fewer values than parameters are given), and the connection is asked for
    /// its error message only when a bind fails. Together ~8% of a rebuild's writing thread at 100K messages.
    @discardableResult
    func bind(_ values: [SQLiteValue]) throws(SearchIndexError) -> SQLiteStatement {
        sqlite3_reset(stmt)
        if values.count < Int(sqlite3_bind_parameter_count(stmt)) { sqlite3_clear_bindings(stmt) }
        for (i, v) in values.enumerated() {
            let idx = Int32(i + 1)
            let rc: Int32
            switch v {
            case .null: rc = sqlite3_bind_null(stmt, idx)
            case .int(let n): rc = sqlite3_bind_int64(stmt, idx, n)
            case .text(var s): rc = s.withUTF8 { SQLiteStatement.bindText(stmt, idx, $0) }
            case .blob(let b):
                rc = b.withUnsafeBytes { sqlite3_bind_blob(stmt, idx, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(b.count), mailstore_sqlite_transient()) }
            }
            if rc != SQLITE_OK { try connection.check(rc, "bind \(idx) of \(sql.prefix(60))") }
        }
        return self
    }

    /// Binds the UTF-8 bytes of `text` up to its first NUL (all of them when it has none) to parameter `idx`, copied
    /// by SQLite. A text longer than SQLite takes (2 GiB) is refused by it (`SQLITE_TOOBIG`).
    static func bindText(_ stmt: OpaquePointer, _ idx: Int32, _ text: UnsafeBufferPointer<UInt8>) -> Int32 {
        // A non-null pointer for an empty text: SQLite binds NULL for a null one.
        guard let base = text.baseAddress, !text.isEmpty else { return sqlite3_bind_text(stmt, idx, "", 0, mailstore_sqlite_transient()) }
        let length = memchr(base, 0, text.count).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? text.count
        guard length <= Int(Int32.max) else { return SQLITE_TOOBIG }
        return base.withMemoryRebound(to: CChar.self, capacity: length) {
            sqlite3_bind_text(stmt, idx, $0, Int32(length), mailstore_sqlite_transient())
        }
    }

    /// Steps once: true when a row is available.
    func step() throws(SearchIndexError) -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        if sqlite3_extended_errcode(connection.handle) == mailstore_sqlite_dbmoved() || mailstore_sqlite_file_moved(connection.handle) != 0 {
            throw .replaced(file: connection.path)
        }
        throw .sqlite(call: "step \(sql.prefix(80))", code: rc, message: String(cString: sqlite3_errmsg(connection.handle)))
    }

    /// Runs to completion (for writes).
    func run(_ values: [SQLiteValue] = []) throws(SearchIndexError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(stmt)
    }

    func int(_ col: Int32) -> Int64 { sqlite3_column_int64(stmt, col) }
    func isNull(_ col: Int32) -> Bool { sqlite3_column_type(stmt, col) == SQLITE_NULL }
    func text(_ col: Int32) -> String {
        guard let p = sqlite3_column_text(stmt, col) else { return "" }
        return String(cString: p)
    }
    /// The bytes of a BLOB (or any) column; empty for NULL.
    func bytes(_ col: Int32) -> [UInt8] {
        // The pointer first, then its size (SQLite's documented order: the size is of the value as converted).
        guard let p = sqlite3_column_blob(stmt, col) else { return [] }
        let n = Int(sqlite3_column_bytes(stmt, col))
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
    /// Releases the statement's read snapshot.
    func reset() { sqlite3_reset(stmt) }
}

/// A value to bind.
enum SQLiteValue: Equatable {
    case null
    case int(Int64)
    case text(String)
    case blob([UInt8])
}
