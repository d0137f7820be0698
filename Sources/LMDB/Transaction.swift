import CLMDB

/// A transaction, borrowed inside `Environment.read` or `Environment.write`.
///
/// It is non-copyable, so it cannot be stored or leave its closure. The buffers its reads return
/// point into the map and are valid only until the closure returns: copy what must outlive it.
@usableFromInline package struct Transaction: ~Copyable {
    @usableFromInline let handle: OpaquePointer
    /// True for a read-only transaction.
    @usableFromInline package let readOnly: Bool

    init(handle: OpaquePointer, readOnly: Bool) {
        self.handle = handle
        self.readOnly = readOnly
    }

    func openDatabase(_ name: String, flags: Database.Flags) throws -> Database {
        var dbi = MDB_dbi()
        try LMDBError.check(mdb_dbi_open(handle, name, flags.rawValue, &dbi), "mdb_dbi_open(\(name))")
        return Database(dbi: dbi, name: name)
    }

    /// The raw handle, for a `TransactionScope` used inside the closure that borrows this transaction.
    @usableFromInline package var unsafeHandle: OpaquePointer { handle }

    /// The value for `key`, or nil.
    @inlinable package func get(_ db: Database, key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        try Transaction.get(handle, db, key)
    }

    /// `mdb_get` in the transaction `handle`: the value for `key`, borrowed from the map, or nil (`Transaction` and
    /// `TransactionScope` both read through it).
    @inlinable static func get(_ handle: OpaquePointer, _ db: Database, _ key: UnsafeRawBufferPointer) throws
        -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let rc = mdb_get(handle, db.dbi, &k, &v)
        if rc == MDB_NOTFOUND { return nil }
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_get(\(db.name))") }
        return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
    }

    /// The value for `key`, copied, or nil.
    @usableFromInline package func getBytes(_ db: Database, key: [UInt8]) throws -> [UInt8]? {
        try key.withUnsafeBytes { k in try get(db, key: k).map { Array($0) } }
    }

    /// Stores `value` under `key`. Returns false when `.noOverwrite`/`.noDupData` found it present.
    @discardableResult @inlinable
    package func put(_ db: Database, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer,
                    flags: PutFlags = []) throws -> Bool {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(handle, db.dbi, &k, &v, flags.rawValue)
        if rc == MDB_KEYEXIST && (flags.contains(.noOverwrite) || flags.contains(.noDupData)) { return false }
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_put(\(db.name))") }
        return true
    }

    /// Stores `value` under `key` unless the key exists; then returns the existing value (and writes
    /// nothing). Returns nil when it stored the value. One B-tree descent for check and insert.
    @inlinable package func putIfAbsent(_ db: Database, key: UnsafeRawBufferPointer,
                                       value: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(handle, db.dbi, &k, &v, UInt32(MDB_NOOVERWRITE))
        if rc == MDB_KEYEXIST { return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size) }
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_put(\(db.name))") }
        return nil
    }

    /// Stores `value` under `key` (array convenience).
    @discardableResult
    @usableFromInline package func put(_ db: Database, key: [UInt8], value: [UInt8], flags: PutFlags = []) throws -> Bool {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(db, key: k, value: v, flags: flags) } }
    }

    /// Deletes `key` (and all its values). Returns false when it was absent.
    @discardableResult
    @usableFromInline package func delete(_ db: Database, key: [UInt8]) throws -> Bool {
        try key.withUnsafeBytes { kb in
            var k = MDB_val(mv_size: kb.count, mv_data: UnsafeMutableRawPointer(mutating: kb.baseAddress))
            let rc = mdb_del(handle, db.dbi, &k, nil)
            if rc == MDB_NOTFOUND { return false }
            if rc != 0 { throw LMDBError(code: rc, operation: "mdb_del(\(db.name))") }
            return true
        }
    }

    /// Removes every entry of `db` (keeping the database).
    @usableFromInline package func clear(_ db: Database) throws {
        try LMDBError.check(mdb_drop(handle, db.dbi, 0), "mdb_drop(\(db.name))")
    }

    /// The names of the file's named databases (the keys of LMDB's main database), at most `limit`
    /// (names longer than 511 bytes, which LMDB does not make, are skipped).
    package func databaseNames(limit: Int = 4_096) throws -> [String] {
        var dbi = MDB_dbi()
        try LMDBError.check(mdb_dbi_open(handle, nil, 0, &dbi), "mdb_dbi_open(main)")
        var c: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(handle, dbi, &c), "mdb_cursor_open(main)")
        defer { mdb_cursor_close(c) }
        var names: [String] = []
        var k = MDB_val(), v = MDB_val()
        var rc = mdb_cursor_get(c, &k, &v, MDB_FIRST)
        while rc == 0 && names.count < limit {
            if k.mv_size <= 511 {
                names.append(String(decoding: UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size), as: UTF8.self))
            }
            rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)
        }
        if rc != 0 && rc != MDB_NOTFOUND { throw LMDBError(code: rc, operation: "mdb_cursor_get(main)") }
        return names
    }

    /// Deletes the named database `name` and its pages (absent is fine). Its handle, if any process has one
    /// open, must not be used again.
    package func drop(named name: String) throws {
        var dbi = MDB_dbi()
        let rc = mdb_dbi_open(handle, name, 0, &dbi)
        if rc == MDB_NOTFOUND { return }
        try LMDBError.check(rc, "mdb_dbi_open(\(name))")
        try LMDBError.check(mdb_drop(handle, dbi, 1), "mdb_drop(\(name), delete)")
    }

    /// The database's counts.
    @usableFromInline package func stat(_ db: Database) throws -> DatabaseStat {
        var st = MDB_stat()
        try LMDBError.check(mdb_stat(handle, db.dbi, &st), "mdb_stat(\(db.name))")
        return DatabaseStat(entries: st.ms_entries, depth: Int(st.ms_depth), branchPages: st.ms_branch_pages,
                            leafPages: st.ms_leaf_pages, overflowPages: st.ms_overflow_pages,
                            pageSize: Int(st.ms_psize))
    }

    /// Runs `body` with a cursor over `db`, closed when `body` returns.
    @usableFromInline package func withCursor<R>(_ db: Database, _ body: (borrowing Cursor) throws -> R) throws -> R {
        var c: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(handle, db.dbi, &c), "mdb_cursor_open(\(db.name))")
        guard let cursor = c else { throw LMDBError(code: -1, operation: "mdb_cursor_open(\(db.name))") }
        defer { mdb_cursor_close(cursor) }
        return try body(Cursor(handle: cursor, db: db))
    }
}
