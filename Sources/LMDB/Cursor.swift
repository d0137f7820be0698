import CLMDB

/// A cursor over one database, borrowed inside `Transaction.withCursor`.
///
/// Positioning calls return the entry they land on, or nil at the end. The returned buffers point
/// into the map: valid until the transaction ends.
public struct Cursor: ~Copyable {
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let db: Database

    init(handle: OpaquePointer, db: Database) {
        self.handle = handle
        self.db = db
    }

    /// A key and its value.
    public typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

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
    @inlinable public func first() throws -> Entry? { try op(MDB_FIRST) }
    /// The last entry.
    @inlinable public func last() throws -> Entry? { try op(MDB_LAST) }
    /// The next entry (for dupSort: the next value, then the next key).
    @inlinable public func next() throws -> Entry? { try op(MDB_NEXT) }
    /// The previous entry.
    @inlinable public func previous() throws -> Entry? { try op(MDB_PREV) }
    /// The entry under the cursor.
    @inlinable public func current() throws -> Entry? { try op(MDB_GET_CURRENT) }
    /// The first entry whose key is >= `key`.
    @inlinable public func seek(atLeast key: UnsafeRawBufferPointer) throws -> Entry? { try op(MDB_SET_RANGE, key: key) }
    /// The entry whose key is exactly `key`.
    @inlinable public func seek(exactly key: UnsafeRawBufferPointer) throws -> Entry? { try op(MDB_SET_KEY, key: key) }
    /// dupSort: the first value >= `value` of exactly `key`.
    @inlinable public func seek(key: UnsafeRawBufferPointer, valueAtLeast value: UnsafeRawBufferPointer) throws -> Entry? {
        try op(MDB_GET_BOTH_RANGE, key: key, value: value)
    }
    /// dupSort: the next value of the current key only.
    @inlinable public func nextDuplicate() throws -> Entry? { try op(MDB_NEXT_DUP) }
    /// dupSort: the last value of the current key.
    @inlinable public func lastDuplicate() throws -> Entry? { try op(MDB_LAST_DUP) }
    /// dupSort: the previous value of the current key only.
    @inlinable public func previousDuplicate() throws -> Entry? { try op(MDB_PREV_DUP) }

    /// dupSort: how many values the current key has.
    public func duplicateCount() throws -> Int {
        var n: Int = 0
        try LMDBError.check(mdb_cursor_count(handle, &n), "mdb_cursor_count(\(db.name))")
        return n
    }

    /// Stores through the cursor (e.g. with `.append`), leaving it on the new entry.
    @inlinable public func put(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, flags: PutFlags = []) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_cursor_put(handle, &k, &v, flags.rawValue)
        if rc != 0 { throw LMDBError(code: rc, operation: "mdb_cursor_put(\(db.name))") }
    }

    /// Deletes the entry under the cursor.
    public func deleteCurrent() throws {
        try LMDBError.check(mdb_cursor_del(handle, 0), "mdb_cursor_del(\(db.name))")
    }
}
