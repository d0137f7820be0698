import EventModel
import Glibc

/// A typed table of a projector with a write-back cache: reads hit the cache, then the store; writes
/// stay in the cache until `flush()`. Decoded values are cached, so a fold touching the same record many
/// times in a batch decodes and encodes it once.
///
/// A table is folded by one thread at a time, so its cache skips Swift's run-time exclusivity checks
/// (`@exclusivity(unchecked)`, docs/architecture.md "Exclusivity checks"): a check on every read and write of a fold.
package final class ViewTable<Value: BinaryField> {
    /// The table's name in the store.
    package let name: String
    private let store: KeyValueStore
    /// Values read or written in this batch (nil: no entry), each marked when it must be written.
    @exclusivity(unchecked) private var cache: [TableKey: Cached] = [:]

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
        precondition(!modifying, "ViewTable \(name): used inside its own modify")
        let tk = TableKey(key)
        if let c = cache[tk] { return c.value }
        let v = try load(key)
        cache[tk] = Cached(value: v, dirty: false)
        return v
    }

    /// The value under `key` as `get` gives it, without keeping it in the cache: for a pass over many entries,
    /// whose memory must not grow with them.
    package func peek(_ key: [UInt8]) throws -> Value? {
        precondition(!modifying, "ViewTable \(name): used inside its own modify")
        if let c = cache[TableKey(key)] { return c.value }
        return try load(key)
    }

    /// Stores `value` under `key` (written at the next flush). Deleting an entry this batch read as absent, and did
    /// not change since, writes nothing: archiving 1,000 threads deleted each one's list of undelivered notifications,
    /// which none had (1,000 deletes of absent keys, each a B-tree descent and a version in the views' history).
    package func set(_ key: [UInt8], _ value: Value?) {
        precondition(!modifying, "ViewTable \(name): used inside its own modify")
        let tk = TableKey(key)
        if value == nil, let c = cache[tk], !c.dirty, c.value == nil { return }
        cache[tk] = Cached(value: value, dirty: true)
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
    ///
    /// The value is changed where the cache holds it (`Dictionary.Values`' subscript by index: one hash of the key
    /// when cached, no copy), where taking it out of the cache and putting it back had hashed the key twice and
    /// shifted the cache's buckets on each removal (~8% of the contacts fold's CPU: `replay --view contacts` at 100K,
    /// 2026-12-04). `body` must not use this table (its cache is being changed in place): it traps if it does.
    package func modifyIfChanged(_ key: [UInt8], _ body: (inout Value?) throws -> Bool) throws {
        precondition(!modifying, "ViewTable \(name): used inside its own modify")
        let tk = TableKey(key)
        var at = cache.index(forKey: tk)
        if at == nil {
            cache[tk] = Cached(value: try load(key), dirty: false)
            at = cache.index(forKey: tk)
        }
        modifying = true
        defer { modifying = false }
        if try body(&cache.values[at!].value) { cache.values[at!].dirty = true }
    }

    /// Whether a `modifyIfChanged` body runs: the cache must not be used meanwhile.
    @exclusivity(unchecked) private var modifying = false

    /// Calls `body` with each key stored under `prefix` (changes still in the cache, not written yet, are not
    /// seen), in key order, until it returns false.
    package func storedKeys(prefix: [UInt8], _ body: ([UInt8]) throws -> Bool) throws {
        try store.scan(name, from: prefix) { key, _ in
            guard key.starts(with: prefix) else { return false }
            return try body(key)
        }
    }

    /// The keys under `prefix` that hold a value now: those stored, less those this batch deleted, plus those this batch
    /// added and not written yet (what `storedKeys` does not see), in key order. Walks the stored keys under `prefix` and
    /// the whole cache (a fold's batch): for a rare event that touches every entry under a prefix.
    package func keys(prefix: [UInt8]) throws -> [[UInt8]] {
        precondition(!modifying, "ViewTable \(name): used inside its own modify")
        var found = Set<TableKey>()
        try storedKeys(prefix: prefix) { key in
            found.insert(TableKey(key))
            return true
        }
        for (key, cached) in cache where key.bytes.starts(with: prefix) {
            if cached.value == nil { found.remove(key) } else { found.insert(key) }
        }
        return found.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The stored value under `key`, decoded.
    private func load(_ key: [UInt8]) throws -> Value? {
        try store.withValue(name, key) { buf throws -> Value in
            var r = ByteReader(buf)
            return try Value(from: &r)
        }
    }

    /// Changes encoded in key order by `encode()`, waiting for `flush()`.
    @exclusivity(unchecked) private var encoded: EncodedChanges?

    /// Encodes every changed entry and puts them in key order, emptying the cache, without touching the store:
    /// a view folded on a second thread does this there, and the writing thread's `flush()` only writes.
    package func encode() {
        // A table the batch did not touch (most of a view's tables in a small batch) has nothing to encode: its
        // emptied cache's room is not swept again.
        guard !cache.isEmpty else { return }
        // Keys and values go into one buffer (not an array each), so writing and dropping them is a few
        // allocations per batch rather than two per change.
        var changes = encoded.take() ?? EncodedChanges()
        changes.reserve(cache.count)
        for (k, c) in cache where c.dirty {
            if let v = c.value {
                changes.append(key: k.bytes) { v.write(to: &$0) }
            } else {
                changes.append(key: k.bytes, value: nil)
            }
        }
        cache.removeAll(keepingCapacity: true)
        changes.sort()
        encoded = consume changes
    }

    /// Writes every changed entry to the store, in key order, and empties the cache.
    package func flush() throws {
        encode()
        defer { encoded = nil }
        try encoded?.forEach { key, value in
            if let value {
                try store.put(name, key, value)
            } else {
                try store.delete(name, key)
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
package struct TableKey: Hashable {
    /// The key's bytes.
    package let bytes: [UInt8]

    /// Wraps `bytes` (no copy).
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    package static func == (a: TableKey, b: TableKey) -> Bool { a.bytes == b.bytes }
}
