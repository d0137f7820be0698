import EventModel
import Glibc

/// A typed table of a projector with a write-back cache: reads hit the cache, then the store; writes
/// stay in the cache until `flush()`. Decoded values are cached, so a fold touching the same record many
/// times in a batch decodes and encodes it once.
package final class ViewTable<Value: BinaryField> {
    /// The table's name in the store.
    package let name: String
    private let store: KeyValueStore
    private var cache: [TableKey: Value?] = [:]
    private var dirty: Set<TableKey> = []

    /// Creates a table named `name` over `store`.
    package init(_ name: String, store: KeyValueStore) {
        self.name = name
        self.store = store
    }

    /// The value under `key`, or nil.
    package func get(_ key: [UInt8]) throws -> Value? {
        let tk = TableKey(key)
        if let c = cache[tk] { return c }
        guard let raw = try store.get(name, key) else {
            cache[tk] = .some(nil)
            return nil
        }
        let v = try raw.withUnsafeBytes { buf throws -> Value in
            var r = ByteReader(buf)
            return try Value(from: &r)
        }
        cache[tk] = .some(v)
        return v
    }

    /// Stores `value` under `key` (written at the next flush).
    package func set(_ key: [UInt8], _ value: Value?) {
        let tk = TableKey(key)
        cache[tk] = .some(value)
        dirty.insert(tk)
    }

    /// Changes the value under `key` in place: `body` gets the only reference to it (no copy of its
    /// arrays on mutation), and the result is stored (nil deletes).
    package func modify<R>(_ key: [UInt8], _ body: (inout Value?) throws -> R) throws -> R {
        let tk = TableKey(key)
        var value: Value?
        if let cached = cache.removeValue(forKey: tk) {
            value = cached
        } else if let raw = try store.get(name, key) {
            value = try raw.withUnsafeBytes { buf throws -> Value in
                var r = ByteReader(buf)
                return try Value(from: &r)
            }
        }
        defer {
            cache[tk] = .some(value)
            dirty.insert(tk)
        }
        return try body(&value)
    }

    /// Writes every changed entry to the store, in key order, and empties the cache.
    package func flush() throws {
        for key in dirty.sorted(by: TableKey.precedes) {
            if let v = cache[key] ?? nil {
                var w = ByteWriter(capacity: 64)
                v.write(to: &w)
                try store.put(name, key.bytes, w.bytes)
            } else {
                try store.delete(name, key.bytes)
            }
        }
        dirty.removeAll(keepingCapacity: true)
        cache.removeAll(keepingCapacity: true)
    }

    /// Drops the cache and every unwritten change.
    package func discard() {
        dirty.removeAll(keepingCapacity: true)
        cache.removeAll(keepingCapacity: true)
    }

    /// The number of entries in the cache (for deciding when to flush).
    package var cachedCount: Int { cache.count }
}

/// A value-less entry (for index tables whose keys carry everything).
package struct Present: BinaryField, Equatable {
    /// The one value.
    package init() {}
    package func write(to writer: inout ByteWriter) {}
    package init(from reader: inout ByteReader) throws(DecodeError) {}
}

/// A byte key that hashes its bytes in one call (an `[UInt8]` hashes element by element).
struct TableKey: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: TableKey, b: TableKey) -> Bool { a.bytes == b.bytes }

    /// Byte order (as LMDB sorts keys), with memcmp.
    static func precedes(_ a: TableKey, _ b: TableKey) -> Bool {
        a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in
                let n = min(x.count, y.count)
                let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
                return c != 0 ? c < 0 : x.count < y.count
            }
        }
    }
}
