import EventModel
import Glibc

/// A table's changes of one batch, encoded: keys and values back to back in one buffer, and for each change
/// where its key and value lie (a deletion has no value). `sort()` puts them in key order, as LMDB sorts keys.
///
/// One buffer rather than an array per key and per value: encoding, sorting, writing and dropping a batch's
/// changes then costs a few allocations instead of two per change, and no reference counting per entry.
package struct EncodedChanges: ~Copyable {
    private var buffer = ByteWriter(capacity: 4_096)
    private var changes: [Change] = []

    private struct Change {
        var keyStart: Int
        var keyEnd: Int
        /// The value is `keyEnd..<valueEnd`; nil for a deletion.
        var valueEnd: Int?
    }

    /// No changes.
    package init() {}

    /// The number of changes.
    package var count: Int { changes.count }
    /// The bytes of the changes' keys and values held.
    package var byteCount: Int { buffer.count }

    /// Drops every change, keeping the buffer's room for the next.
    package mutating func removeAll() {
        buffer.removeAll()
        changes.removeAll(keepingCapacity: true)
    }

    /// Makes room for `n` more changes.
    package mutating func reserve(_ n: Int) { changes.reserveCapacity(changes.count + n) }

    /// Appends a change of `key` whose value `write` encodes.
    package mutating func append(key: [UInt8], _ write: (inout ByteWriter) -> Void) {
        let start = buffer.count
        buffer.writeRaw(key)
        let keyEnd = buffer.count
        write(&buffer)
        changes.append(Change(keyStart: start, keyEnd: keyEnd, valueEnd: buffer.count))
    }

    /// Appends a change of `key` to `value` (nil: a deletion).
    package mutating func append(key: [UInt8], value: [UInt8]?) {
        let start = buffer.count
        buffer.writeRaw(key)
        let keyEnd = buffer.count
        if let value { buffer.writeRaw(value) }
        changes.append(Change(keyStart: start, keyEnd: keyEnd, valueEnd: value == nil ? nil : buffer.count))
    }

    /// Appends a change of `key` to `value` (nil: a deletion), both copied.
    package mutating func append(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer?) {
        let start = buffer.count
        buffer.writeRaw(key)
        let keyEnd = buffer.count
        if let value { buffer.writeRaw(value) }
        changes.append(Change(keyStart: start, keyEnd: keyEnd, valueEnd: value == nil ? nil : buffer.count))
    }

    /// Calls `body` with the changes at `positions` (of `0..<count`), as `forEach` does.
    package func forEach(in positions: Range<Int>, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Void) throws {
        try buffer.withUnsafeBytes { base in
            for c in changes[positions] {
                let key = UnsafeRawBufferPointer(rebasing: base[c.keyStart..<c.keyEnd])
                try body(key, c.valueEnd.map { UnsafeRawBufferPointer(rebasing: base[c.keyEnd..<$0]) })
            }
        }
    }

    /// Calls `body` with the change at `position` (of `0..<count`): its key and its value (nil for a deletion), borrowed
    /// for the call.
    package func withChange<R>(at position: Int, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        let c = changes[position]
        return try buffer.withUnsafeBytes { base in
            try body(UnsafeRawBufferPointer(rebasing: base[c.keyStart..<c.keyEnd]),
                     c.valueEnd.map { UnsafeRawBufferPointer(rebasing: base[c.keyEnd..<$0]) })
        }
    }

    /// Calls `body` with each change in order: its key and its value (nil for a deletion), borrowed for the call.
    package func forEach(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Void) throws {
        try forEach(in: changes.indices, body)
    }

    /// Puts the changes in key order (byte order, a key before the keys it is a prefix of); changes of the same
    /// key keep their order, so the later one is written last. Compared by the 16 bytes after the prefix all the
    /// keys share (a table's keys often start alike: an account, a folder) as two integers, then with memcmp
    /// where those tie.
    package mutating func sort() {
        guard changes.count > 1 else { return }
        let all = changes
        let order: [Int] = buffer.withUnsafeBytes { base in
            let bytes = base.bindMemory(to: UInt8.self)
            var shared = all[0].keyEnd - all[0].keyStart
            for c in all.dropFirst() where shared > 0 {
                shared = min(shared, c.keyEnd - c.keyStart)
                var i = 0
                while i < shared && bytes[c.keyStart + i] == bytes[all[0].keyStart + i] { i += 1 }
                shared = i
            }
            func word(_ c: Change, from offset: Int) -> UInt64 {
                var v: UInt64 = 0
                for j in offset..<(offset + 8) {
                    let at = c.keyStart + j
                    v = v << 8 | UInt64(at < c.keyEnd ? bytes[at] : 0)
                }
                return v
            }
            var ranks: [(high: UInt64, low: UInt64, index: Int)] = []
            ranks.reserveCapacity(all.count)
            for (i, c) in all.enumerated() { ranks.append((word(c, from: shared), word(c, from: shared + 8), i)) }
            ranks.sort { a, b in
                if a.high != b.high { return a.high < b.high }
                if a.low != b.low { return a.low < b.low }
                let x = all[a.index], y = all[b.index]
                let n = min(x.keyEnd - x.keyStart, y.keyEnd - y.keyStart)
                let c = n == 0 ? 0 : memcmp(base.baseAddress! + x.keyStart, base.baseAddress! + y.keyStart, n)
                if c != 0 { return c < 0 }
                if x.keyEnd - x.keyStart != y.keyEnd - y.keyStart { return x.keyEnd - x.keyStart < y.keyEnd - y.keyStart }
                return a.index < b.index
            }
            return ranks.map(\.index)
        }
        changes = order.map { all[$0] }
    }
}
