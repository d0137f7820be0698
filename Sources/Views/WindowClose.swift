import LMDB

/// A window's close left running after a fold (`ViewStore.closeWindowAfterFold`), read in one transaction at the window's
/// end and written in several: every key the window changed with the value it holds there, to be written as the window's
/// versions in chunks of write transactions, between which other folds (the next action's, a sync's next batch) write
/// theirs. A fold no longer waits for the whole close (~70-250 ms at 50,000 threads, growing with the history), only for
/// the read that takes the window's end.
///
/// Copied out of the map, the keys and values are the window's versions: bounded by the window's bytes of versions
/// (`ViewHistory.windowBytes`, 32 MiB; a deferred close takes at most one batch past it), held from the read until the
/// close's last chunk. Each table's versions lie in one buffer, in key order: the key's length (2 bytes, big-endian), the
/// key, the value's length plus 1 (4 bytes, big-endian; 0: the key was deleted), the value.
struct WindowClose {
    /// The window this close closes (its number and end).
    let window: ViewHistory.Window
    /// The last window closed when the close was read: a chunk written finds it still the last, or stops (another
    /// process closed the window meanwhile, with versions of its own for every key).
    let before: ViewHistory.Window?
    /// The change log's last entry the window holds: the close removes the entries up to it, the next window's stay.
    let lastSerial: UInt64
    /// The window's bytes of versions when it was read (`ViewHistory.openBytesKey`): taken from the count when it closes.
    let bytes: UInt64
    /// Each table's versions, tables in byte order of their names.
    private(set) var tables: [(name: String, versions: [UInt8], count: Int)] = []

    init(window: ViewHistory.Window, before: ViewHistory.Window?, lastSerial: UInt64, bytes: UInt64) {
        self.window = window
        self.before = before
        self.lastSerial = lastSerial
        self.bytes = bytes
    }

    /// The versions held, keys and values (what the close holds in memory).
    var heldBytes: Int { tables.reduce(0) { $0 + $1.versions.count } }

    /// Adds `table`'s `keys` (in key order, each once) with the values `value` gives (nil: deleted), copied; a key or
    /// value longer than its length field holds is `ViewError.damaged`.
    mutating func add(table: String, keys: [UnsafeRawBufferPointer], value: (UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer?) throws {
        var out: [UInt8] = []
        for k in keys {
            let v = try value(k)
            // A key is at most LMDB's 511 bytes (the change log's lengths are 2 bytes); a value this buffer's 4-byte
            // length cannot hold is a damaged file's, not a view's (their records are bounded by `ViewBounds`).
            guard k.count <= 0xFFFF, (v?.count ?? 0) < Int(UInt32.max) else {
                throw ViewError.damaged("\(table): a key of \(k.count) bytes or a value of \(v?.count ?? 0) bytes in a window's versions")
            }
            out.append(UInt8(truncatingIfNeeded: k.count >> 8))
            out.append(UInt8(truncatingIfNeeded: k.count))
            out.append(contentsOf: k)
            let n = v.map { UInt32($0.count) + 1 } ?? 0
            withUnsafeBytes(of: n.bigEndian) { out.append(contentsOf: $0) }
            if let v { out.append(contentsOf: v) }
        }
        tables.append((table, out, keys.count))
    }

    /// Calls `body` with each version of table `index` from entry `from` on, at most `limit` of them: the key and the
    /// value (nil: deleted), borrowed for the call. Returns where the next call goes on (`count` when done). The buffer
    /// is this type's own writing; a length past its end (which `add` never writes) stops the walk.
    func forEach(table index: Int, from: (entry: Int, offset: Int), limit: Int,
                 _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Void) rethrows -> (entry: Int, offset: Int) {
        let t = tables[index]
        return try t.versions.withUnsafeBytes { buf in
            var entry = from.entry, i = from.offset
            while entry < t.count && entry - from.entry < limit {
                guard buf.count - i >= 2 else { return (t.count, buf.count) }
                let kn = Int(buf[i]) << 8 | Int(buf[i + 1])
                guard buf.count - i - 2 >= kn + 4 else { return (t.count, buf.count) }
                let key = UnsafeRawBufferPointer(rebasing: buf[(i + 2)..<(i + 2 + kn)])
                i += 2 + kn
                let n = buf[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
                i += 4
                guard n == 0 || buf.count - i >= n - 1 else { return (t.count, buf.count) }
                let value = n == 0 ? nil : UnsafeRawBufferPointer(rebasing: buf[i..<(i + n - 1)])
                i += max(0, n - 1)
                try body(key, value)
                entry += 1
            }
            return (entry, i)
        }
    }
}
