import CLMDB

/// A reference to the transaction a closure is borrowing, for code that needs an object (a class
/// conforming to a protocol) rather than the non-copyable `Transaction`.
///
/// Create it inside the `read`/`write` closure with `TransactionScope(txn)` and call `end()` before the
/// closure returns (use `defer`); every call after `end()` traps, so it cannot outlive the transaction.
///
/// Used by the thread that owns the transaction only (LMDB's rule), so its stored properties skip Swift's run-time
/// exclusivity checks (`@exclusivity(unchecked)`: a check on every put through a cursor).
package final class TransactionScope {
    @exclusivity(unchecked) private var handle: OpaquePointer?
    /// True for a read-only transaction.
    package let readOnly: Bool

    /// Wraps the transaction `txn` borrowed by the current closure.
    package init(_ txn: borrowing Transaction) {
        handle = txn.unsafeHandle
        readOnly = txn.readOnly
    }

    /// Ends the scope: the transaction may be committed or aborted after this. Closes the cursors `putThroughCursor`
    /// and `deleteThroughCursor` opened.
    package func end() {
        for c in writeCursors { mdb_cursor_close(c.cursor) }
        writeCursors.removeAll()
        handle = nil
    }

    /// The cursors of `putThroughCursor` and `deleteThroughCursor`, one per database (a fold writes a few tables).
    @exclusivity(unchecked) private var writeCursors: [(dbi: MDB_dbi, cursor: OpaquePointer)] = []

    private func writeCursor(_ db: Database) throws -> OpaquePointer {
        for c in writeCursors where c.dbi == db.dbi { return c.cursor }
        var c: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(live, db.dbi, &c), "mdb_cursor_open(\(db.name))")
        guard let cursor = c else { throw LMDBError(code: -1, operation: "mdb_cursor_open(\(db.name))") }
        writeCursors.append((db.dbi, cursor))
        return cursor
    }

    /// Stores `value` under `key` through this scope's cursor on `db` (opened at the first call, closed by `end()`).
    /// Keys written in order search from the leaf the last one left when they fall within it (`mdb_cursor_set`),
    /// where `put` descends from the root each time. Any order is correct.
    package func putThroughCursor(_ db: Database, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        let cursor = try writeCursor(db)
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_cursor_put(cursor, &k, &v, 0)
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_cursor_put(\(db.name))") }
    }

    /// Deletes `key` (absent is fine) through this scope's cursor on `db`, as `putThroughCursor` stores.
    package func deleteThroughCursor(_ db: Database, _ key: UnsafeRawBufferPointer) throws {
        let cursor = try writeCursor(db)
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let rc = mdb_cursor_get(cursor, &k, &v, MDB_SET)
        if rc == MDB_NOTFOUND { return }
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_cursor_get(\(db.name))") }
        try LMDBError.check(mdb_cursor_del(cursor, 0), "mdb_cursor_del(\(db.name))")
    }

    private var live: OpaquePointer {
        guard let h = handle else { preconditionFailure("a TransactionScope was used after its transaction ended") }
        return h
    }

    /// The value for `key`, copied, or nil.
    package func get(_ db: Database, _ key: [UInt8]) throws -> [UInt8]? {
        try key.withUnsafeBytes { try getBorrowed(db, $0).map { Array($0) } }
    }

    /// The value for `key`, borrowed from the map (valid until the transaction writes that page or ends), or nil.
    package func getBorrowed(_ db: Database, _ key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        try Transaction.get(live, db, key)
    }

    /// Stores `value` under `key`.
    package func put(_ db: Database, _ key: [UInt8], _ value: [UInt8]) throws {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(db, k, v) } }
    }

    /// Stores `value` under `key`, both borrowed (a slice of a bigger buffer, say).
    package func put(_ db: Database, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(live, db.dbi, &k, &v, 0)
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_put(\(db.name))") }
    }

    /// Stores `value` under `key`, which sorts after every key of `db` (`MDB_APPEND`: no search, pages filled).
    package func append(_ db: Database, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(live, db.dbi, &k, &v, UInt32(MDB_APPEND))
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_put(\(db.name), append)") }
    }

    /// Reserves `size` bytes for the value of `key`, which sorts after every key of `db` (`MDB_APPEND | MDB_RESERVE`),
    /// and returns them to fill before the transaction ends.
    package func reserveAppending(_ db: Database, _ key: UnsafeRawBufferPointer, size: Int) throws -> UnsafeMutableRawBufferPointer {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: size, mv_data: nil)
        let rc = mdb_put(live, db.dbi, &k, &v, UInt32(MDB_RESERVE) | UInt32(MDB_APPEND))
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_put(\(db.name), reserve, append)") }
        return UnsafeMutableRawBufferPointer(start: v.mv_data, count: size)
    }

    /// Reserves `size` bytes for `key`'s value and returns them to fill before the transaction ends
    /// (`MDB_RESERVE`: the value is written once, where it lies). Not for dupSort databases.
    package func reserve(_ db: Database, _ key: UnsafeRawBufferPointer, size: Int) throws -> UnsafeMutableRawBufferPointer {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: size, mv_data: nil)
        let rc = mdb_put(live, db.dbi, &k, &v, UInt32(MDB_RESERVE))
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_put(\(db.name), reserve)") }
        return UnsafeMutableRawBufferPointer(start: v.mv_data, count: size)
    }

    /// Removes every entry of `db` (keeping the database).
    package func clear(_ db: Database) throws {
        try LMDBError.check(mdb_drop(live, db.dbi, 0), "mdb_drop(\(db.name))")
    }

    /// Runs `body` with a cursor over `db`, closed when `body` returns.
    package func withCursor<R>(_ db: Database, _ body: (borrowing Cursor) throws -> R) throws -> R {
        var c: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(live, db.dbi, &c), "mdb_cursor_open(\(db.name))")
        guard let handle = c else { throw LMDBError(code: -1, operation: "mdb_cursor_open(\(db.name))") }
        defer { mdb_cursor_close(handle) }
        return try body(Cursor(handle: handle, db: db))
    }

    /// Deletes `key` (absent is fine).
    package func delete(_ db: Database, _ key: [UInt8]) throws {
        try key.withUnsafeBytes { try delete(db, $0) }
    }

    /// Deletes `key`, borrowed (absent is fine).
    package func delete(_ db: Database, _ key: UnsafeRawBufferPointer) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        let rc = mdb_del(live, db.dbi, &k, nil)
        if rc != 0 && rc != MDB_NOTFOUND { throw LMDBError(code: rc, operation: "mdb_del(\(db.name))") }
    }

    /// Calls `body` with each entry of `db` whose key is at least `start` (from the first entry for an empty
    /// `start`), in key order, copied, until it returns false.
    package func scan(_ db: Database, from start: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try scanBorrowed(db, from: start) { key, value in try body(Array(key), Array(value)) }
    }

    /// As `scan`, but `body` borrows each key and value from the map: valid only during that call.
    package func scanBorrowed(_ db: Database, from start: [UInt8],
                              _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        var c: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(live, db.dbi, &c), "mdb_cursor_open(\(db.name))")
        guard let cursor = c else { throw LMDBError(code: -1, operation: "mdb_cursor_open(\(db.name))") }
        defer { mdb_cursor_close(cursor) }
        try start.withUnsafeBytes { sb in
            var k = MDB_val(mv_size: sb.count, mv_data: UnsafeMutableRawPointer(mutating: sb.baseAddress))
            var v = MDB_val()
            var rc = mdb_cursor_get(cursor, &k, &v, start.isEmpty ? MDB_FIRST : MDB_SET_RANGE)
            while rc == 0 {
                let key = UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size)
                let value = UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
                if try !body(key, value) { return }
                rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT)
            }
            if rc != MDB_NOTFOUND { throw LMDBError(code: rc, operation: "mdb_cursor_get(\(db.name))") }
        }
    }
}
