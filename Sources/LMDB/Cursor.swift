import CLMDB

/// A cursor over one database, borrowed inside `Transaction.withCursor`.
///
/// Positioning calls return the entry they land on, or nil at the end. The returned buffers point
/// into the map: valid until the transaction ends.
@usableFromInline package struct Cursor: ~Copyable {
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let db: Database

    init(handle: OpaquePointer, db: Database) {
        self.handle = handle
        self.db = db
    }

    /// A key and its value.
    @usableFromInline package typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    @inlinable func op(_ op: MDB_cursor_op, key: UnsafeRawBufferPointer? = nil,
                       value: UnsafeRawBufferPointer? = nil) throws -> Entry? {
        var k = MDB_val(mv_size: key?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: key?.baseAddress))
        var v = MDB_val(mv_size: value?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: value?.baseAddress))
        let rc = mdb_cursor_get(handle, &k, &v, op)
        if rc == MDB_NOTFOUND { return nil }
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_cursor_get(\(db.name), op \(op.rawValue))") }
        return (UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
                UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size))
    }

    /// The first entry.
    @inlinable package func first() throws -> Entry? { try op(MDB_FIRST) }
    /// The last entry.
    @inlinable package func last() throws -> Entry? { try op(MDB_LAST) }
    /// The next entry (for dupSort: the next value, then the next key).
    @inlinable package func next() throws -> Entry? { try op(MDB_NEXT) }
    /// The next entry, read ahead of its use: its value (up to 4 KiB) is asked into the CPU's caches while the
    /// caller still works on the entry before it, and a failure is handed back rather than thrown, for the caller to
    /// throw where it would have read the entry (after using the one before). For sequential scans that decode
    /// every value: a leaf page is 4 KiB and the CPU's own prefetcher does not cross into the next page, so each
    /// record's first bytes waited on memory (in the log bench's typed scan the first pass over strings' bytes took
    /// 20% of the samples without this, 4% with it).
    @inlinable package func nextAhead() -> Result<Entry?, any Error> {
        let ahead = Result { () throws -> Entry? in try op(MDB_NEXT) }
        if case .success(let e?) = ahead, let start = e.value.baseAddress { mailstore_prefetch(start, e.value.count) }
        return ahead
    }
    /// The previous entry.
    @inlinable package func previous() throws -> Entry? { try op(MDB_PREV) }
    /// The entry under the cursor.
    @inlinable package func current() throws -> Entry? { try op(MDB_GET_CURRENT) }
    /// The first entry whose key is >= `key`.
    @inlinable package func seek(atLeast key: UnsafeRawBufferPointer) throws -> Entry? { try op(MDB_SET_RANGE, key: key) }
    /// The entry whose key is exactly `key`.
    @inlinable package func seek(exactly key: UnsafeRawBufferPointer) throws -> Entry? { try op(MDB_SET_KEY, key: key) }
    /// dupSort: the first value >= `value` of exactly `key`.
    @inlinable package func seek(key: UnsafeRawBufferPointer, valueAtLeast value: UnsafeRawBufferPointer) throws -> Entry? {
        try op(MDB_GET_BOTH_RANGE, key: key, value: value)
    }
    /// dupSort: the next value of the current key only.
    @inlinable package func nextDuplicate() throws -> Entry? { try op(MDB_NEXT_DUP) }
    /// dupSort: the first value of the next key.
    @inlinable package func nextKey() throws -> Entry? { try op(MDB_NEXT_NODUP) }
    /// dupSort: the last value of the current key.
    @inlinable package func lastDuplicate() throws -> Entry? { try op(MDB_LAST_DUP) }
    /// dupSort: the previous value of the current key only.
    @inlinable package func previousDuplicate() throws -> Entry? { try op(MDB_PREV_DUP) }

    /// dupSort: how many values the current key has.
    @usableFromInline package func duplicateCount() throws -> Int {
        var n: Int = 0
        try LMDBError.check(mdb_cursor_count(handle, &n), "mdb_cursor_count(\(db.name))")
        return n
    }

    /// Stores through the cursor (e.g. with `.append`), leaving it on the new entry.
    @inlinable package func put(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, flags: PutFlags = []) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_cursor_put(handle, &k, &v, flags.rawValue)
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_cursor_put(\(db.name))") }
    }

    /// Stores `value` under `key` through the cursor unless the key exists; then returns the existing value (and
    /// writes nothing). Returns nil when it stored the value. Consecutive calls with nearby keys (ascending ids)
    /// search from the cursor's leaf rather than from the root, as `Transaction.putIfAbsent` does.
    @inlinable package func putIfAbsent(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_cursor_put(handle, &k, &v, UInt32(MDB_NOOVERWRITE))
        if rc == MDB_KEYEXIST { return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size) }
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_cursor_put(\(db.name))") }
        return nil
    }

    /// Reserves `size` bytes for `key`'s value through the cursor and returns them to fill before the transaction
    /// ends (`MDB_RESERVE`). With `.append`, consecutive calls skip the descent from the root that
    /// `Transaction.reserve` makes each time. Not for dupSort databases.
    @inlinable package func reserve(key: UnsafeRawBufferPointer, size: Int, flags: PutFlags = []) throws -> UnsafeMutableRawBufferPointer {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: size, mv_data: nil)
        let rc = mdb_cursor_put(handle, &k, &v, flags.rawValue | UInt32(MDB_RESERVE))
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_cursor_put(\(db.name), reserve)") }
        return UnsafeMutableRawBufferPointer(start: v.mv_data, count: size)
    }

    /// Deletes the entry under the cursor.
    @usableFromInline package func deleteCurrent() throws {
        try LMDBError.check(mdb_cursor_del(handle, 0), "mdb_cursor_del(\(db.name))")
    }
}
