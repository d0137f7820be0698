import EventModel
import Glibc

/// A typed table of a projector with a write-back cache: reads hit the cache, then the store; writes
/// stay in the cache until `flush()`. Decoded values are cached, so a fold touching the same record many
/// times in a batch decodes and encodes it once.
package final class ViewTable<Value: BinaryField> {
    /// The table's name in the store.
    package let name: String
    private let store: KeyValueStore
    /// Values read or written in this batch (nil: no entry), each marked when it must be written.
    private var cache: [TableKey: Cached] = [:]

    private struct Cached {
        var value: Value?
        var dirty: Bool
    }

    /// Creates a table named `name` over `store`.
    package init(_ name: String, store: KeyValueStore) {
        self.name = name
        self.store = store
    }

    /// The value under `key`, or nil.
    package func get(_ key: [UInt8]) throws -> Value? {
        let tk = TableKey(key)
        if let c = cache[tk] { return c.value }
        let v = try load(key)
        cache[tk] = Cached(value: v, dirty: false)
        return v
    }

    /// Stores `value` under `key` (written at the next flush).
    package func set(_ key: [UInt8], _ value: Value?) {
        cache[TableKey(key)] = Cached(value: value, dirty: true)
    }

    /// Changes the value under `key` in place: `body` gets the only reference to it (no copy of its
    /// arrays on mutation), and the result is stored (nil deletes).
    package func modify<R>(_ key: [UInt8], _ body: (inout Value?) throws -> R) throws -> R {
        let tk = TableKey(key)
        var value: Value?
        if let cached = cache.removeValue(forKey: tk) {
            value = cached.value
        } else {
            value = try load(key)
        }
        defer { cache[tk] = Cached(value: value, dirty: true) }
        return try body(&value)
    }

    /// The stored value under `key`, decoded.
    private func load(_ key: [UInt8]) throws -> Value? {
        guard let raw = try store.get(name, key) else { return nil }
        return try raw.withUnsafeBytes { buf throws -> Value in
            var r = ByteReader(buf)
            return try Value(from: &r)
        }
    }

    /// Writes every changed entry to the store, in key order, and empties the cache.
    package func flush() throws {
        var keys: [TableKey] = [], values: [Value?] = []
        for (k, c) in cache where c.dirty {
            keys.append(k)
            values.append(c.value)
        }
        // Sorted by 8-byte prefix and position (plain integers), memcmp only where prefixes tie.
        var order: [(prefix: UInt64, index: Int)] = keys.indices.map { (keys[$0].prefix, $0) }
        order.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : TableKey.precedes(keys[$0.index], keys[$1.index]) }
        var w = ByteWriter(capacity: 64)
        for (_, i) in order {
            if let v = values[i] {
                w.removeAll()
                v.write(to: &w)
                try store.put(name, keys[i].bytes, w.bytes)
            } else {
                try store.delete(name, keys[i].bytes)
            }
        }
        cache.removeAll(keepingCapacity: true)
    }

    /// Drops the cache and every unwritten change.
    package func discard() {
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

    /// The first 8 bytes as a big-endian number (zero-padded): comparing two of them orders keys as their
    /// first 8 bytes do.
    var prefix: UInt64 {
        bytes.withUnsafeBytes { b in
            var v: UInt64 = 0
            for i in 0..<8 { v = v << 8 | UInt64(i < b.count ? b[i] : 0) }
            return v
        }
    }

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
