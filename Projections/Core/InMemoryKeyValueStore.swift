/// A `KeyValueStore` in memory, in key order as LMDB keeps it: for testing projectors and readers
/// without LMDB, and for folding small scratch views.
package final class InMemoryKeyValueStore: KeyValueStore {
    private var tables: [String: [[UInt8]: [UInt8]]] = [:]

    /// An empty store.
    package init() {}

    package func get(_ table: String, _ key: [UInt8]) throws -> [UInt8]? { tables[table]?[key] }

    package func put(_ table: String, _ key: [UInt8], _ value: [UInt8]) throws {
        guard !key.isEmpty && key.count <= InMemoryKeyValueStore.maxKeyBytes else {
            throw InMemoryStoreError.keySize(table: table, bytes: key.count)
        }
        tables[table, default: [:]][key] = value
    }

    package func delete(_ table: String, _ key: [UInt8]) throws { tables[table]?[key] = nil }

    package func scan(_ table: String, from start: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        let keys = (tables[table] ?? [:]).keys.filter { !InMemoryKeyValueStore.precedes($0, start) }.sorted(by: InMemoryKeyValueStore.precedes)
        for k in keys {
            guard let v = tables[table]?[k] else { continue }
            if try !body(k, v) { return }
        }
    }

    /// Every entry of `table`, in key order.
    package func entries(_ table: String) -> [([UInt8], [UInt8])] {
        (tables[table] ?? [:]).sorted { InMemoryKeyValueStore.precedes($0.key, $1.key) }.map { ($0.key, $0.value) }
    }

    /// The names of the tables holding entries.
    package var tableNames: [String] { tables.filter { !$0.value.isEmpty }.keys.sorted() }

    /// LMDB's default key size limit, enforced here too so tests catch an unbounded key.
    package static let maxKeyBytes = 511

    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool { Key.precedes(a, b) }
}
