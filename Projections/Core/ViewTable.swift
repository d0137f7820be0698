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
        var result: R?
        try modifyIfChanged(key) { value in
            result = try body(&value)
            return true
        }
        return result!
    }

    /// Changes the value under `key` in place when `body` says it did (returns true): as `modify`, but an entry
    /// `body` leaves alone is not written (it stays as read, or as an earlier change of this batch left it).
    /// `body` must not change the value when it returns false. One lookup for a read and a change.
    package func modifyIfChanged(_ key: [UInt8], _ body: (inout Value?) throws -> Bool) throws {
        let tk = TableKey(key)
        var entry: Cached
        if let cached = cache.removeValue(forKey: tk) {
            entry = cached
        } else {
            entry = Cached(value: try load(key), dirty: false)
        }
        defer { cache[tk] = entry }
        if try body(&entry.value) { entry.dirty = true }
    }

    /// Calls `body` with each key stored under `prefix` when the batch began (this batch's changes, still in
    /// the cache, are not seen), in key order, until it returns false.
    package func storedKeys(prefix: [UInt8], _ body: ([UInt8]) throws -> Bool) throws {
        try store.scan(name, from: prefix) { key, _ in
            guard key.starts(with: prefix) else { return false }
            return try body(key)
        }
    }

    /// The stored value under `key`, decoded.
    private func load(_ key: [UInt8]) throws -> Value? {
        guard let raw = try store.get(name, key) else { return nil }
        return try raw.withUnsafeBytes { buf throws -> Value in
            var r = ByteReader(buf)
            return try Value(from: &r)
        }
    }

    /// Changes encoded and put in key order by `encode()`, waiting for `flush()`.
    private var encoded: [(key: [UInt8], value: [UInt8]?)]?

    /// Encodes every changed entry and puts them in key order, emptying the cache, without touching the store:
    /// a view folded on a second thread does this there, and the writing thread's `flush()` only writes.
    package func encode() {
        // Encoded in one pass; what follows works on bytes, not on generic values.
        var entries: [(key: [UInt8], value: [UInt8]?)] = encoded ?? []
        entries.reserveCapacity(entries.count + cache.count)
        for (k, c) in cache where c.dirty {
            if let v = c.value {
                var w = ByteWriter(capacity: 64)
                v.write(to: &w)
                entries.append((k.bytes, w.bytes))
            } else {
                entries.append((k.bytes, nil))
            }
        }
        cache.removeAll(keepingCapacity: true)
        encoded = TableKey.sorted(entries)
    }

    /// Writes every changed entry to the store, in key order, and empties the cache.
    package func flush() throws {
        if !cache.isEmpty || encoded == nil { encode() }
        defer { encoded = nil }
        for e in encoded ?? [] {
            if let v = e.value {
                try store.put(name, e.key, v)
            } else {
                try store.delete(name, e.key)
            }
        }
    }

    /// Drops the cache and every unwritten change.
    package func discard() {
        cache.removeAll(keepingCapacity: true)
        encoded = nil
    }

    /// The bytes the cache's storage holds allocated (its entries' room; an empty cache may keep it).
    package var cacheBytes: Int {
        cache.capacity * (MemoryLayout<TableKey>.stride + MemoryLayout<Cached>.stride)
    }

    /// Drops the cache with its room (and every unwritten change).
    package func freeCache() {
        cache = [:]
        encoded = nil
    }
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

    /// `entries` in key order, as LMDB sorts keys; entries with the same key keep their order (the sort is
    /// stable), so the later one is written last. Sorted by the 8 bytes after the prefix all the keys share (a
    /// table's keys often start alike: an account, a folder) and their position, both plain integers; memcmp
    /// only where those tie.
    static func sorted(_ entries: [(key: [UInt8], value: [UInt8]?)]) -> [(key: [UInt8], value: [UInt8]?)] {
        guard let first = entries.first?.key else { return entries }
        var shared = first.count
        for e in entries.dropFirst() where shared > 0 {
            shared = min(shared, e.key.count)
            e.key.withUnsafeBufferPointer { k in
                first.withUnsafeBufferPointer { f in
                    var i = 0
                    while i < shared && k[i] == f[i] { i += 1 }
                    shared = i
                }
            }
        }
        var order: [(rank: UInt64, index: Int)] = []
        order.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() {
            var v: UInt64 = 0
            e.key.withUnsafeBufferPointer { k in
                for j in shared..<(shared + 8) { v = v << 8 | UInt64(j < k.count ? k[j] : 0) }
            }
            order.append((v, i))
        }
        order.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            return precedes(entries[a.index].key, entries[b.index].key)
        }
        return order.map { entries[$0.index] }
    }

    /// Byte order (as LMDB sorts keys), with memcmp.
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                let n = min(x.count, y.count)
                let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
                return c != 0 ? c < 0 : x.count < y.count
            }
        }
    }
}
