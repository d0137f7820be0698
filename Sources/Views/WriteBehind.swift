import Projections

/// One fold's writes into a private views folder, held in memory across batches and written to the B-trees
/// later, in key order, in transactions of a bounded size (`ViewStore.writeOut`). Time travel's folds use it
/// (`ViewStore.scratch(writesBehind:)`: the tail after a snapshot, folded into that snapshot's restored views), and
/// so does a generation being built (`replay`, a schema upgrade), with half the memory.
///
/// Why: a batch's changes land at scattered keys of B-trees much bigger than the batch, and LMDB copies every
/// page a transaction changes, each first write to a page of the shared map costing the file system a fault
/// (`ext4_page_mkwrite`). Written batch by batch (~7,000 events each), a fold at a million messages copied most
/// leaves of the big tables again in every batch. Gathered over many batches and written in key order, each leaf
/// is copied once per write-out, and a key changed by several batches is written once: the first look at a point
/// 250,000 events after a snapshot took 7.2-7.7 s against 8.5-9.1 s, half the system time; a 1M replay 189-202 s
/// against 215 s.
///
/// Only for a folder that is emptied when its fold does not end (a `.building` generation is removed, past views
/// lose their `LOG`, scratch folders are removed): its checkpoints run ahead of its B-trees until the write-out. The
/// live generation never writes behind (other processes read it, and a crash must leave it as its last commit did),
/// nor does `verify --views`' rebuild, which is thus folded as the live views are.
///
/// The running transaction's writes are undone when it aborts (`abort`: a view failing, the map full), as LMDB
/// drops its own; `commit` keeps them. Lookups see what is held, then the B-tree. Not thread-safe: one fold's
/// store, used by one thread at a time.
final class WriteBehind {
    /// What a lookup found.
    enum Lookup {
        /// Not written here: read the B-tree.
        case notHere
        /// Written with this value.
        case value([UInt8])
        /// Deleted.
        case deleted
    }

    /// The entries held per table (a nil value: deleted), by table name.
    private var tables: [[TableKey: [UInt8]?]] = []
    /// Each table's held keys in key order, for scans; nil once a key was added or removed since they were sorted
    /// (sorted again at the next scan: once per batch of writes, not per scan).
    private var sorted: [[TableKey]?] = []
    private var names: [String] = []
    private var tableIndex: [String: Int] = [:]
    /// The table used last: a fold's writes and reads come in runs per table.
    private var last: (name: String, index: Int)?
    /// What the running transaction replaced, oldest first: (table, key, the entry before: nil when none).
    private var undo: [(table: Int, key: TableKey, before: [UInt8]??)] = []

    /// The bytes held: keys, values and `entryOverhead` for each entry.
    private(set) var bytes = 0
    /// What an entry costs beyond its key and value bytes: two arrays' headers and heap blocks, and its slot.
    static let entryOverhead = 112

    /// Whether nothing is held.
    var isEmpty: Bool { bytes == 0 }

    private func index(_ table: String, creating: Bool) -> Int? {
        if let last, last.name == table { return last.index }
        if let i = tableIndex[table] {
            last = (table, i)
            return i
        }
        guard creating else { return nil }
        let i = tables.count
        tables.append([:])
        sorted.append([])
        names.append(table)
        tableIndex[table] = i
        last = (table, i)
        return i
    }

    private static func size(_ key: TableKey, _ value: [UInt8]?) -> Int { key.bytes.count + (value?.count ?? 0) + entryOverhead }

    /// Holds `value` under `key` of `table` (nil: deletes it).
    func write(_ table: String, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) {
        let t = index(table, creating: true)!
        let k = TableKey(Array(key))
        let v: [UInt8]? = value.map { Array($0) }
        let before = tables[t].updateValue(v, forKey: k)
        if let before { bytes -= WriteBehind.size(k, before) } else { sorted[t] = nil }
        bytes += WriteBehind.size(k, v)
        undo.append((t, k, before))
    }

    /// The entry under `key` of `table`, as held here.
    func lookup(_ table: String, _ key: [UInt8]) -> Lookup {
        guard let t = index(table, creating: false), let v = tables[t][TableKey(key)] else { return .notHere }
        return v.map { .value($0) } ?? .deleted
    }

    /// A table's held entries from a key on, in key order (a nil value: deleted), read as a scan goes.
    struct Entries {
        /// The keys, in key order.
        let keys: ArraySlice<TableKey>
        /// The entries by key.
        let values: [TableKey: [UInt8]?]

        static let none = Entries(keys: [], values: [:])
    }

    /// The entries of `table` at or after `start`, in key order, for a scan that merges them with the B-tree's.
    func entries(_ table: String, from start: [UInt8]) -> Entries {
        guard let t = index(table, creating: false), !tables[t].isEmpty else { return .none }
        if sorted[t] == nil {
            // Byte order, as LMDB orders keys (a key before the longer keys it starts).
            sorted[t] = tables[t].keys.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        }
        let keys = sorted[t]!
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid].bytes.lexicographicallyPrecedes(start) { lo = mid + 1 } else { hi = mid }
        }
        return Entries(keys: keys[lo...], values: tables[t])
    }

    /// Keeps the running transaction's writes (it committed).
    func commit() { undo.removeAll(keepingCapacity: true) }

    /// Undoes the running transaction's writes (it aborted).
    func abort() {
        for u in undo.reversed() {
            if let current = tables[u.table][u.key] { bytes -= WriteBehind.size(u.key, current) }
            if let before = u.before {
                tables[u.table][u.key] = before
                bytes += WriteBehind.size(u.key, before)
            } else {
                tables[u.table].removeValue(forKey: u.key)
                sorted[u.table] = nil
            }
        }
        undo.removeAll(keepingCapacity: true)
    }

    /// The names of the tables holding entries.
    var tablesHeld: [String] { tables.indices.filter { !tables[$0].isEmpty }.map { names[$0] } }

    /// Takes what `table` holds, encoded in key order; it holds nothing after (and no transaction may be running).
    func take(_ table: String) -> EncodedChanges {
        precondition(undo.isEmpty, "a write-out while a transaction's writes are held")
        var changes = EncodedChanges()
        guard let t = index(table, creating: false) else { return changes }
        let entries = tables[t]
        tables[t] = [:]
        sorted[t] = []
        changes.reserve(entries.count)
        for (k, v) in entries {
            changes.append(key: k.bytes, value: v)
            bytes -= WriteBehind.size(k, v)
        }
        changes.sort()
        return changes
    }
}
