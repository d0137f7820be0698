import LMDB
import Projections

/// The projectors' `KeyValueStore` (and the readers' `KeyValueReader`) over the views environment, bound
/// to one transaction at a time.
final class LMDBKeyValueStore: KeyValueStore {
    private let databases: [String: Database]
    var scope: TransactionScope?
    /// For a view built from empty: lookups of keys never put skip the B-tree (see `AbsentKeyFilters`).
    private let filters: AbsentKeyFilters?
    /// For a fold into a private folder: writes held in memory until written out in key order (`WriteBehind`).
    let writeBehind: WriteBehind?
    /// Where each write is also recorded as a version of the views' history (`ViewHistory`), or nil (no history:
    /// a scratch fold, reads).
    let history: HistoryRecorder?
    /// For a view of a generation being built (`ViewStore.stagedViews`): its history's versions are the changes it
    /// holds behind, written out with its tables as runs appended to `views.staging` and merged into the history
    /// when the generation is published (`ViewStore.writeOut`, `ViewStore.publish`).
    let stagesHistory: Bool
    /// For a generation being built: the changes written out but not yet merged into the B-trees (`SpilledRuns`),
    /// shared by every view of the build.
    let spilled: SpilledRuns?

    init(databases: [String: Database], scope: TransactionScope? = nil, filters: AbsentKeyFilters? = nil,
         writeBehind: WriteBehind? = nil, history: HistoryRecorder? = nil, stagesHistory: Bool = false,
         spilled: SpilledRuns? = nil) {
        self.spilled = spilled
        self.databases = databases
        self.scope = scope
        self.filters = filters
        self.writeBehind = writeBehind
        self.history = history
        self.stagesHistory = stagesHistory
    }

    /// The table looked up last: a table's reads and writes come in runs (a flush writes one table), and
    /// comparing the same string is cheaper than hashing it.
    private var last: (table: String, database: Database)?

    private func db(_ table: String) throws -> Database {
        if let last, last.table == table { return last.database }
        guard let d = databases[table] else { throw ViewError.unknownTable(table) }
        last = (table, d)
        return d
    }

    private var live: TransactionScope {
        guard let s = scope else { preconditionFailure("a projector touched its tables outside a views transaction") }
        return s
    }

    func get(_ table: String, _ key: [UInt8]) throws -> [UInt8]? {
        try withValue(table, key) { Array($0) }
    }
    func withValue<R>(_ table: String, _ key: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        if let writeBehind {
            switch writeBehind.lookup(table, key) {
            case .value(let v): return try v.withUnsafeBytes(body)
            case .deleted: return nil
            case .notHere: break
            }
        }
        if let filters, filters.surelyAbsent(table, key) { return nil }
        if let spilled {
            switch try key.withUnsafeBytes({ try spilled.lookup(table, $0) }) {
            case .value(let v): return try v.withUnsafeBytes(body)
            case .deleted: return nil
            case .notHere: break
            }
        }
        // Borrowed from the map: `body` runs before this transaction writes again.
        return try key.withUnsafeBytes { k in try live.getBorrowed(db(table), k).map(body) }
    }
    func put(_ table: String, _ key: [UInt8], _ value: [UInt8]) throws {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(table, k, v) } }
    }
    func put(_ table: String, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        if let writeBehind {
            _ = try db(table)
            writeBehind.write(table, key, value)
        } else {
            // A flush writes each table's changes in key order: through a cursor, most skip the descent from the root.
            try live.putThroughCursor(db(table), key, value)
        }
        try history?.record(table, key, value, scope: live, writeBehind: writeBehind)
        filters?.put(table, key)
    }
    func delete(_ table: String, _ key: [UInt8]) throws { try key.withUnsafeBytes { try delete(table, $0) } }
    func delete(_ table: String, _ key: UnsafeRawBufferPointer) throws {
        if let writeBehind {
            _ = try db(table)
            writeBehind.write(table, key, nil)
        } else {
            try live.deleteThroughCursor(db(table), key)
        }
        try history?.record(table, key, nil, scope: live, writeBehind: writeBehind)
    }
    func scan(_ table: String, from start: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try scanBorrowed(table, from: start) { key, value in try body(Array(key), Array(value)) }
    }
    func scanBorrowed(_ table: String, from start: [UInt8],
                      _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        let held = writeBehind?.entries(table, from: start) ?? .none
        let d = try db(table)
        guard let spilled, spilled.holds(table) else {
            return try HeldEntries.mergedScan(held, base: { try live.scanBorrowed(d, from: start, $0) }, body)
        }
        // Held writes over the spilled runs over the B-tree.
        var changes = MergedChangeCursor(newestFirst: [HeldChangeCursor(held), try spilled.cursor(table, from: start)])
        try HeldEntries.mergedScan(&changes, base: { try live.scanBorrowed(d, from: start, $0) }, body)
    }
}
