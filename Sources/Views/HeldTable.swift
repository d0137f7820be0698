import Foundation

/// One table's writes held behind (`WriteBehind`): keys and values in one byte buffer, an entry per key in the order
/// first written, found through an open-addressing index of the keys' hashes (linear probing, at most half full).
/// A value written again is appended and the entry points at it; `compactIfWasteful` drops the values replaced.
struct HeldTable {
    /// Where a value lies in the buffer; `count` -1: deleted.
    struct ValueRange {
        var start: Int
        var count: Int
    }

    /// One key held: its bytes, its value and its hash.
    struct Entry {
        var keyStart: Int
        var keyCount: Int
        var value: ValueRange
        var hash: Int
    }

    private var buffer: [UInt8] = []
    private var entries: [Entry] = []
    /// Entry number + 1 (0: empty); a power of two long, at most half full.
    private var slots: [Int32] = []
    /// Bytes of the buffer no entry points at (values replaced).
    private var dead = 0
    /// The entries' numbers in key order, until an entry is added or removed.
    private var sorted: [Int]?

    /// The number of keys held.
    var count: Int { entries.count }
    /// The buffer's size.
    var bufferCount: Int { buffer.count }

    /// The hash of a key: SipHash, seeded per process (keys come from mail, so a chosen set of them must not be
    /// able to make every lookup walk one long chain).
    static func hash(_ key: UnsafeRawBufferPointer) -> Int {
        var h = Hasher()
        h.combine(bytes: key)
        return h.finalize()
    }

    /// The entry holding `key` (whose hash is `hash`), if any.
    func find(_ key: UnsafeRawBufferPointer, hash: Int) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var i = hash & mask
        return buffer.withUnsafeBytes { b -> Int? in
            while true {
                let s = Int(slots[i])
                if s == 0 { return nil }
                let e = entries[s - 1]
                if e.hash == hash, e.keyCount == key.count,
                   key.isEmpty || memcmp(b.baseAddress! + e.keyStart, key.baseAddress!, key.count) == 0 {
                    return s - 1
                }
                i = (i + 1) & mask
            }
        }
    }

    /// Adds `key` (not held yet) with `value` (nil: deleted).
    mutating func add(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?, hash: Int) {
        if (entries.count + 1) * 2 > slots.count { reindex(capacity: max(64, slots.count * 2)) }
        let keyStart = buffer.count
        buffer.append(contentsOf: key)
        let valueStart = buffer.count
        if let value { buffer.append(contentsOf: value) }
        entries.append(Entry(keyStart: keyStart, keyCount: key.count,
                             value: ValueRange(start: valueStart, count: value?.count ?? -1), hash: hash))
        insert(entries.count - 1)
        sorted = nil
    }

    /// Gives entry `e` the value `value` (nil: deleted), appended; its old value's bytes become waste.
    mutating func replace(_ e: Int, with value: UnsafeRawBufferPointer?) {
        dead += max(0, entries[e].value.count)
        if let value {
            entries[e].value = ValueRange(start: buffer.count, count: value.count)
            buffer.append(contentsOf: value)
        } else {
            entries[e].value = ValueRange(start: 0, count: -1)
        }
    }

    /// Entry `e`'s value where it lies.
    func value(of e: Int) -> ValueRange { entries[e].value }

    /// Entry `e`'s value, copied (nil: deleted).
    func valueBytes(of e: Int) -> [UInt8]? {
        let v = entries[e].value
        return v.count < 0 ? nil : Array(buffer[v.start..<(v.start + v.count)])
    }

    /// Entry `e`'s key, copied.
    func keyBytes(of e: Int) -> [UInt8] {
        let x = entries[e]
        return Array(buffer[x.keyStart..<(x.keyStart + x.keyCount)])
    }

    /// Entry `e`'s key against `other`, in LMDB's order: < 0, 0 or > 0.
    func compareKey(of e: Int, with other: UnsafeRawBufferPointer) -> Int32 {
        let x = entries[e]
        return buffer.withUnsafeBytes { b in
            ViewStore.compareBytes(UnsafeRawBufferPointer(rebasing: b[x.keyStart..<(x.keyStart + x.keyCount)]), other)
        }
    }

    /// The entries' numbers in key order (kept until an entry is added or removed).
    mutating func sortedOrder() -> [Int] {
        if let sorted { return sorted }
        let order = buffer.withUnsafeBytes { b in
            entries.indices.sorted { i, j in
                let x = entries[i], y = entries[j]
                return ViewStore.compareBytes(UnsafeRawBufferPointer(rebasing: b[x.keyStart..<(x.keyStart + x.keyCount)]),
                                              UnsafeRawBufferPointer(rebasing: b[y.keyStart..<(y.keyStart + y.keyCount)])) < 0
            }
        }
        sorted = order
        return order
    }

    /// Puts entry `e`'s value back to `value` (undoing a transaction's `replace`).
    mutating func restore(_ e: Int, _ value: ValueRange) {
        entries[e].value = value
    }

    /// Drops the entries from number `entries` on and the buffer from byte `buffer` on (undoing a transaction: what
    /// the remaining entries point at lies before it).
    mutating func truncate(entries n: Int, buffer b: Int) {
        if n < entries.count {
            entries.removeSubrange(n...)
            reindex(capacity: slots.count)
            sorted = nil
        }
        if b < buffer.count { buffer.removeSubrange(b...) }
        dead = buffer.count - entries.reduce(0) { $0 + $1.keyCount + max(0, $1.value.count) }
    }

    /// Copies the live keys and values into a new buffer when values replaced are at least half of it (and 64 KiB).
    mutating func compactIfWasteful() {
        guard dead >= 64 << 10, dead * 2 >= buffer.count else { return }
        var fresh: [UInt8] = []
        fresh.reserveCapacity(buffer.count - dead)
        buffer.withUnsafeBytes { b in
            for i in entries.indices {
                let x = entries[i]
                let keyStart = fresh.count
                fresh.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[x.keyStart..<(x.keyStart + x.keyCount)]))
                var value = ValueRange(start: fresh.count, count: x.value.count)
                if x.value.count >= 0 {
                    fresh.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[x.value.start..<(x.value.start + x.value.count)]))
                } else {
                    value.start = 0
                }
                entries[i].keyStart = keyStart
                entries[i].value = value
            }
        }
        buffer = fresh
        dead = 0
    }

    /// The bytes `WriteBehind` counts for these entries: keys, values and `overhead` each.
    func heldBytes(overhead: Int) -> Int {
        entries.reduce(0) { $0 + $1.keyCount + max(0, $1.value.count) + overhead }
    }

    /// Calls `body` with each entry's key and value (nil: deleted), in the order first written.
    func forEach(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) -> Void) {
        buffer.withUnsafeBytes { b in
            for x in entries {
                let key = UnsafeRawBufferPointer(rebasing: b[x.keyStart..<(x.keyStart + x.keyCount)])
                let value = x.value.count < 0 ? nil : UnsafeRawBufferPointer(rebasing: b[x.value.start..<(x.value.start + x.value.count)])
                body(key, value)
            }
        }
    }

    /// Rebuilds the index with `capacity` slots (a power of two).
    private mutating func reindex(capacity: Int) {
        slots = [Int32](repeating: 0, count: max(64, capacity))
        for e in entries.indices { insert(e) }
    }

    private mutating func insert(_ e: Int) {
        let mask = slots.count - 1
        var i = entries[e].hash & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = Int32(e + 1)
    }
}
