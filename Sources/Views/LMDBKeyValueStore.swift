import LMDB
import Projections

/// The projectors' `KeyValueStore` (and the readers' `KeyValueReader`) over the views environment, bound
/// to one transaction at a time.
final class LMDBKeyValueStore: KeyValueStore {
    private let databases: [String: Database]
    var scope: TransactionScope?
    /// For a view built from empty: lookups of keys never put skip the B-tree (see `AbsentKeyFilters`).
    private let filters: AbsentKeyFilters?

    init(databases: [String: Database], scope: TransactionScope? = nil, filters: AbsentKeyFilters? = nil) {
        self.databases = databases
        self.scope = scope
        self.filters = filters
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
        if let filters, filters.surelyAbsent(table, key) { return nil }
        return try live.get(db(table), key)
    }
    func put(_ table: String, _ key: [UInt8], _ value: [UInt8]) throws {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(table, k, v) } }
    }
    func put(_ table: String, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        try live.put(db(table), key, value)
        filters?.put(table, key)
    }
    func delete(_ table: String, _ key: [UInt8]) throws { try live.delete(db(table), key) }
    func delete(_ table: String, _ key: UnsafeRawBufferPointer) throws { try live.delete(db(table), key) }
    func scan(_ table: String, from start: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try live.scan(db(table), from: start, body)
    }
    func scanBorrowed(_ table: String, from start: [UInt8],
                      _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        try live.scanBorrowed(db(table), from: start, body)
    }
}
