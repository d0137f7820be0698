/// Read access to the storage of the views: named tables of ordered byte keys and byte values.
///
/// The I/O layer implements it over one LMDB read transaction (a consistent snapshot); tests implement
/// it in memory (`InMemoryKeyValueStore`).
package protocol KeyValueReader: AnyObject {
    /// The value of `key` in `table`, or nil.
    func get(_ table: String, _ key: [UInt8]) throws -> [UInt8]?
    /// The result of `body` over the value of `key` in `table`, borrowed: valid only during that call, no copy made
    /// (a value read from the map is decoded where it lies); nil when there is none. For the lookups of a fold,
    /// where an array made, copied into and freed for each record read was ~4% of a batch action's calling thread.
    func withValue<R>(_ table: String, _ key: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R?
    /// Calls `body` with each entry of `table` whose key is at least `start` (every entry for an empty
    /// `start`), in key order, until it returns false.
    func scan(_ table: String, from start: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws
    /// As `scan`, but `body` borrows each key and value: valid only during that call, no copy made. For
    /// passes over thousands of entries where a copy of each would be most of the cost.
    func scanBorrowed(_ table: String, from start: [UInt8],
                      _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws
}

extension KeyValueReader {
    /// The copying fallback: the value `get` gives, lent to `body`.
    package func withValue<R>(_ table: String, _ key: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        guard let value = try get(table, key) else { return nil }
        return try value.withUnsafeBytes(body)
    }

    /// The copying fallback: each entry of `scan`, lent to `body`.
    package func scanBorrowed(_ table: String, from start: [UInt8],
                              _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        try scan(table, from: start) { key, value in
            try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try body(k, v) } }
        }
    }
}

/// The storage a projector folds into: a `KeyValueReader` that can also write.
///
/// Projectors are pure folds over this interface; the I/O layer implements it over LMDB (the views
/// environment) and tests implement it in memory.
package protocol KeyValueStore: KeyValueReader {
    /// Stores `value` under `key`.
    func put(_ table: String, _ key: [UInt8], _ value: [UInt8]) throws
    /// Removes `key`.
    func delete(_ table: String, _ key: [UInt8]) throws
    /// Stores `value` under `key`, both borrowed for the call (slices of a table's encoded changes).
    func put(_ table: String, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws
    /// Removes `key`, borrowed for the call.
    func delete(_ table: String, _ key: UnsafeRawBufferPointer) throws
}

extension KeyValueStore {
    /// The copying fallback: `key` and `value` copied, then stored.
    package func put(_ table: String, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        try put(table, Array(key), Array(value))
    }

    /// The copying fallback: `key` copied, then removed.
    package func delete(_ table: String, _ key: UnsafeRawBufferPointer) throws {
        try delete(table, Array(key))
    }
}
