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
///
/// Storage: per table, keys and values in one byte buffer (`HeldTable`), found through an open-addressing index of
/// SipHash values (the standard library's `Hasher`, seeded per process: keys come from mail). A key written again
/// gets its new value appended; the buffer is compacted at a commit once replaced values are half of it (and 64 KiB),
/// so the buffers hold at most twice `bytes`, 64 KiB per table and one transaction's writes. (Until 2026-11-29 a dictionary of an array per key and per
/// value: two allocations per write, and the write-outs' copies, ~10% of a replay's folding thread.)
/// Used by one thread at a time (the fold's, or the second core's for its views), so its stored properties skip
/// Swift's run-time exclusivity checks (`@exclusivity(unchecked)`, docs/architecture.md "Exclusivity checks").
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

    @exclusivity(unchecked) private var tables: [HeldTable] = []
    @exclusivity(unchecked) private var names: [String] = []
    @exclusivity(unchecked) private var tableIndex: [String: Int] = [:]
    /// The table used last: a fold's writes and reads come in runs per table.
    @exclusivity(unchecked) private var last: (name: String, index: Int)?
    /// Per table (by index; nil: not written by the running transaction): its entry count and buffer size when the
    /// transaction began.
    @exclusivity(unchecked) private var marks: [(entries: Int, buffer: Int)?] = []
    /// The tables the running transaction wrote.
    @exclusivity(unchecked) private var marked: [Int] = []
    /// What the running transaction replaced in entries it did not add, oldest first: (table, entry, its value then).
    @exclusivity(unchecked) private var undo: [(table: Int, entry: Int, value: HeldTable.ValueRange)] = []
    /// The bytes held: keys, values and `entryOverhead` for each entry (replaced values not counted).
    @exclusivity(unchecked) private(set) var bytes = 0
    /// What an entry is counted beyond its key and value bytes: its `HeldTable.Entry`, index slots and sorted-order
    /// slot take ~64, and the buffers grow by doubling; counted at 64, a 1M replay peaked 5 MiB higher than with
    /// the dictionary's 112 (each write-out held ~20% more entries for the same budget), so 112 it stays.
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
        tables.append(HeldTable())
        marks.append(nil)
        names.append(table)
        tableIndex[table] = i
        last = (table, i)
        return i
    }

    /// Holds `value` under `key` of `table` (nil: deletes it).
    func write(_ table: String, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) {
        let t = index(table, creating: true)!
        let mark: (entries: Int, buffer: Int)
        if let m = marks[t] {
            mark = m
        } else {
            mark = (tables[t].count, tables[t].bufferCount)
            marks[t] = mark
            marked.append(t)
        }
        let hash = HeldTable.hash(key)
        if let e = tables[t].find(key, hash: hash) {
            let before = tables[t].value(of: e)
            if e < mark.entries { undo.append((t, e, before)) }
            tables[t].replace(e, with: value)
            bytes += (value?.count ?? 0) - max(0, before.count)
        } else {
            tables[t].add(key, value, hash: hash)
            bytes += key.count + (value?.count ?? 0) + WriteBehind.entryOverhead
        }
    }

    /// The entry under `key` of `table`, as held here.
    func lookup(_ table: String, _ key: [UInt8]) -> Lookup {
        guard let t = index(table, creating: false) else { return .notHere }
        return key.withUnsafeBytes { k in
            guard let e = tables[t].find(k, hash: HeldTable.hash(k)) else { return .notHere }
            return tables[t].valueBytes(of: e).map { .value($0) } ?? .deleted
        }
    }

    /// A table's held entries from a key on, in key order (a nil value: deleted), read as a scan goes: a snapshot
    /// (the table's storage is shared until written again).
    struct Entries {
        let table: HeldTable
        /// The entries' numbers, in key order.
        let order: ArraySlice<Int>
        static let none = Entries(table: HeldTable(), order: [])

        /// The key of the entry at `position` of `order`.
        func key(at position: Int) -> [UInt8] { table.keyBytes(of: order[position]) }
        /// The value of the entry at `position` of `order` (nil: deleted).
        func value(at position: Int) -> [UInt8]? { table.valueBytes(of: order[position]) }
    }

    /// The entries of `table` at or after `start`, in key order, for a scan that merges them with the B-tree's.
    func entries(_ table: String, from start: [UInt8]) -> Entries {
        guard let t = index(table, creating: false), tables[t].count > 0 else { return .none }
        let order = tables[t].sortedOrder()
        var lo = 0, hi = order.count
        start.withUnsafeBytes { s in
            while lo < hi {
                let mid = (lo + hi) / 2
                if tables[t].compareKey(of: order[mid], with: s) < 0 { lo = mid + 1 } else { hi = mid }
            }
        }
        return Entries(table: tables[t], order: order[lo...])
    }

    /// Keeps the running transaction's writes (it committed); compacts a table whose replaced values are half its
    /// buffer.
    func commit() {
        for t in marked {
            tables[t].compactIfWasteful()
            marks[t] = nil
        }
        marked.removeAll(keepingCapacity: true)
        undo.removeAll(keepingCapacity: true)
    }

    /// Undoes the running transaction's writes (it aborted).
    func abort() {
        for u in undo.reversed() { tables[u.table].restore(u.entry, u.value) }
        for t in marked {
            if let mark = marks[t] { tables[t].truncate(entries: mark.entries, buffer: mark.buffer) }
            marks[t] = nil
        }
        marked.removeAll(keepingCapacity: true)
        undo.removeAll(keepingCapacity: true)
        bytes = tables.reduce(0) { $0 + $1.heldBytes(overhead: WriteBehind.entryOverhead) }
    }

    /// The names of the tables holding entries.
    var tablesHeld: [String] { tables.indices.filter { tables[$0].count > 0 }.map { names[$0] } }

    /// Takes what `table` holds, encoded in key order; it holds nothing after (and no transaction may be running).
    func take(_ table: String) -> EncodedChanges {
        precondition(undo.isEmpty && marked.isEmpty, "a write-out while a transaction's writes are held")
        var changes = EncodedChanges()
        guard let t = index(table, creating: false) else { return changes }
        let held = tables[t]
        tables[t] = HeldTable()
        bytes -= held.heldBytes(overhead: WriteBehind.entryOverhead)
        changes.reserve(held.count)
        held.forEach { key, value in changes.append(key: key, value: value) }
        changes.sort()
        return changes
    }
}
