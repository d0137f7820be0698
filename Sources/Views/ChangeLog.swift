import LMDB
import Projections

/// The keys the live views changed in the open window of their history, not yet written as versions
/// (`ViewHistory.changesTable`): each write a live fold makes to a view table adds its key to the transaction's list
/// for that table, and the transaction writes each table's list as one entry (`flush`) under the next serial number
/// (`MDB_APPEND`: no search, pages filled). When the window closes
/// (`ViewStore.closeWindowIfDue`, in the transaction of the batch that ends it; or, after a live fold's last batch,
/// read at the window's end in a read transaction and written in chunks while later folds append the next window's
/// changes: `closeWindowAfterFold`), each key's value in its table at the window's end is written to the history as
/// that window's version, each key once, table by table in key order, and the log's entries up to the window's last
/// are removed (all of them in a batch's close). A change then costs a short append instead of an insert at
/// a random place of a history table's B-tree, and each of those B-trees' leaves is written once a window rather
/// than once a batch (archiving 1,000 threads changes ~15,000 keys: ~20 ms of inserts, ~3-4 ms of appends one per
/// key, a few copies into a list per table since 2026-11-28).
///
/// An entry: serial (8 bytes, big-endian) -> `00`, the table name's length (1 byte), the name, then each key as its
/// length (2 bytes, big-endian) and bytes. Entries written before 2026-11-28 hold one key each: the name's length
/// (1 byte, never 0), the name, the key's length (2 bytes), the key; both are read. Bounded like the open window
/// (`ViewHistory.windowEvents`, `ViewHistory.windowBytes`); the lists in memory, by a batch's writes.
/// Appended to by the folding thread only, within its write transaction; read and emptied by the window's close.
/// One thread at a time, so its stored properties skip Swift's run-time exclusivity checks (`@exclusivity(unchecked)`,
/// docs/architecture.md "Exclusivity checks").
final class ChangeLog {
    /// The log's table.
    let database: Database
    /// The serial the next change gets (read from the log at the start of each transaction: `begin`).
    @exclusivity(unchecked) private var next: UInt64 = 1
    @exclusivity(unchecked) private var entry: [UInt8] = []
    /// The keys added in the running transaction, per table (each as length and bytes), written by `flush`.
    @exclusivity(unchecked) private var pending: [(name: String, keys: [UInt8])] = []
    /// The list the last key went to.
    @exclusivity(unchecked) private var current = -1

    init(database: Database) { self.database = database }

    static func serialKey(_ n: UInt64) -> [UInt8] { withUnsafeBytes(of: n.bigEndian) { Array($0) } }

    private func damaged() -> ViewError { .damaged("\(database.name): an entry is not a change") }

    /// Starts a transaction's appends after the log's last entry.
    func begin(_ scope: TransactionScope) throws {
        next = try scope.withCursor(database) { c in
            guard let e = try c.last() else { return 1 }
            guard e.key.count == 8 else { throw damaged() }
            return e.key.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } &+ 1
        }
        pending.removeAll()
        current = -1
    }

    /// Adds that `table`'s `key` changed to the running transaction's list for `table` (written by `flush`, before the
    /// transaction commits). A key is at most LMDB's 511 bytes.
    func append(table: String, key: UnsafeRawBufferPointer) {
        if current < 0 || pending[current].name != table {
            current = pending.firstIndex { $0.name == table } ?? {
                pending.append((table, []))
                return pending.count - 1
            }()
        }
        pending[current].keys.append(UInt8(truncatingIfNeeded: key.count >> 8))
        pending[current].keys.append(UInt8(truncatingIfNeeded: key.count))
        pending[current].keys.append(contentsOf: key)
    }

    /// Writes the running transaction's lists, one entry per table, and empties them. Every transaction that added a
    /// key calls it before it commits (`ViewStore`'s fold, before the window's close reads the log).
    func flush(_ scope: TransactionScope) throws {
        for p in pending where !p.keys.isEmpty {
            entry.removeAll(keepingCapacity: true)
            let name = p.name.utf8.prefix(255)
            entry.append(0)
            entry.append(UInt8(name.count))
            entry.append(contentsOf: name)
            entry.append(contentsOf: p.keys)
            let k = ChangeLog.serialKey(next)
            next &+= 1
            try k.withUnsafeBytes { kb in try entry.withUnsafeBytes { try scope.append(database, kb, $0) } }
        }
        pending.removeAll()
        current = -1
    }

    /// Calls `body` with the table and each key of a stored entry (borrowed from it); false when it is not an entry
    /// (`body` may have been called for the keys before the damage).
    static func forEachChange(in stored: UnsafeRawBufferPointer,
                              _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void) -> Bool {
        guard let first = stored.first else { return false }
        if first != 0 {
            guard let change = parse(stored) else { return false }
            body(change.table, change.key)
            return true
        }
        guard stored.count >= 2 else { return false }
        let n = Int(stored[1])
        guard n > 0, stored.count >= 2 + n else { return false }
        let table = UnsafeRawBufferPointer(rebasing: stored[2..<(2 + n)])
        var i = 2 + n
        while i < stored.count {
            guard stored.count - i >= 2 else { return false }
            let k = Int(stored[i]) << 8 | Int(stored[i + 1])
            guard stored.count - i - 2 >= k else { return false }
            body(table, UnsafeRawBufferPointer(rebasing: stored[(i + 2)..<(i + 2 + k)]))
            i += 2 + k
        }
        return true
    }

    /// The table of a stored entry, borrowed; nil when it is not an entry.
    static func table(of stored: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let first = stored.first else { return nil }
        if first != 0 { return parse(stored)?.table }
        guard stored.count >= 2, stored[1] > 0, stored.count >= 2 + Int(stored[1]) else { return nil }
        return UnsafeRawBufferPointer(rebasing: stored[2..<(2 + Int(stored[1]))])
    }

    /// Parses a stored change of one key (written before 2026-11-28): its table and key, borrowed; nil when it is not one.
    static func parse(_ stored: UnsafeRawBufferPointer) -> (table: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer)? {
        guard let n = stored.first.map(Int.init), stored.count >= 1 + n + 2 else { return nil }
        let k = Int(stored[1 + n]) << 8 | Int(stored[2 + n])
        guard stored.count == 3 + n + k else { return nil }
        return (UnsafeRawBufferPointer(rebasing: stored[1..<(1 + n)]), UnsafeRawBufferPointer(rebasing: stored[(3 + n)...]))
    }

    /// Calls `body` with each key changed, once, table by table (tables in byte order of their names) and in key
    /// order within a table; the name and key are borrowed from the map for the call (`forEachTable`).
    func forEachKey(_ scope: TransactionScope, _ body: (String, UnsafeRawBufferPointer) throws -> Void) throws {
        try forEachTable(scope) { table, keys in
            for k in keys { try body(table, k) }
        }
    }

    /// Calls `body` once per table with changes (tables in byte order of their names) with the keys changed in it,
    /// each once, in key order, borrowed from the map for the call. The log's entries are read in place, put in a
    /// list per table as they come (a transaction's changes to one table lie together) and each list sorted as
    /// pointers (no copy of a key, no string per entry): the transaction must not free the log's pages meanwhile,
    /// which only emptying it does.
    func forEachTable(_ scope: TransactionScope, _ body: (String, [UnsafeRawBufferPointer]) throws -> Void) throws {
        var tables: [(name: UnsafeRawBufferPointer, keys: [UnsafeRawBufferPointer])] = []
        var current = -1
        try scope.withCursor(database) { c in
            var e = try c.first()
            while let entry = e {
                let parsed = ChangeLog.forEachChange(in: entry.value) { table, key in
                    if current < 0 || ViewStore.compareBytes(tables[current].name, table) != 0 {
                        current = tables.firstIndex { ViewStore.compareBytes($0.name, table) == 0 } ?? {
                            tables.append((table, []))
                            return tables.count - 1
                        }()
                    }
                    tables[current].keys.append(key)
                }
                guard parsed else { throw damaged() }
                e = try c.next()
            }
        }
        tables.sort { ViewStore.compareBytes($0.name, $1.name) < 0 }
        for i in tables.indices {
            var keys = tables[i].keys
            tables[i].keys = []
            keys.sort { ViewStore.compareBytes($0, $1) < 0 }
            var unique = 0
            for k in keys.indices where unique == 0 || ViewStore.compareBytes(keys[unique - 1], keys[k]) != 0 {
                keys[unique] = keys[k]
                unique += 1
            }
            keys.removeLast(keys.count - unique)
            try body(String(decoding: tables[i].name, as: UTF8.self), keys)
        }
    }

    /// The serial of the log's last entry (0: the log is empty).
    func lastSerial(_ scope: TransactionScope) throws -> UInt64 {
        try scope.withCursor(database) { c in
            guard let e = try c.last() else { return 0 }
            guard e.key.count == 8 else { throw damaged() }
            return e.key.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }

    /// Removes the entries up to serial `last` (a window's, closed by a close left running), leaving those after it
    /// (the next window's, written by folds meanwhile).
    func remove(through last: UInt64, _ scope: TransactionScope) throws {
        var drop: [[UInt8]] = []
        try scope.withCursor(database) { c in
            var e = try c.first()
            while let entry = e {
                guard entry.key.count == 8 else { throw damaged() }
                if entry.key.reduce(UInt64(0), { $0 << 8 | UInt64($1) }) > last { break }
                drop.append(Array(entry.key))
                e = try c.next()
            }
        }
        for k in drop { try scope.delete(database, k) }
    }

    /// Removes the changes of `tables` (views emptied to be folded again).
    func remove(tables: Set<String>, _ scope: TransactionScope) throws {
        var drop: [[UInt8]] = []
        try scope.withCursor(database) { c in
            var e = try c.first()
            while let entry = e {
                guard let table = ChangeLog.table(of: entry.value) else { throw damaged() }
                if tables.contains(String(decoding: table, as: UTF8.self)) { drop.append(Array(entry.key)) }
                e = try c.next()
            }
        }
        for k in drop { try scope.delete(database, k) }
    }
}
