/// Versions of view keys held in one flat buffer: each entry's key and stored value (a `HistoryValue` without a
/// cut key) are ranges of `bytes`, beside its window. What `StagedRuns.merge` reads ahead from each source and hands
/// on a chunk at a time: appending an entry copies its bytes once, into storage kept across refills, where an array
/// per key and per value had cost two allocations and their releases for each version.
struct VersionBatch {
    /// Where one entry lies in `bytes`.
    struct Entry {
        var keyStart: Int
        var keyCount: Int
        var valueCount: Int
        var window: UInt32
        /// The value's first byte (it follows the key).
        var valueStart: Int { keyStart + keyCount }
        /// The entry's last byte plus one.
        var end: Int { valueStart + valueCount }
    }

    private(set) var bytes: [UInt8] = []
    private(set) var entries: [Entry] = []

    /// The number of entries.
    var count: Int { entries.count }
    /// The bytes `bytes` has room for.
    var byteCapacity: Int { bytes.capacity }
    var isEmpty: Bool { entries.isEmpty }

    /// Appends a version: `key`, then the value `marker ‖ value` (`marker` nil: `value` is the whole stored value).
    mutating func append(key: UnsafeRawBufferPointer, window: UInt32, marker: UInt8? = nil, value: UnsafeRawBufferPointer) {
        let start = bytes.count
        bytes.append(contentsOf: key)
        if let marker { bytes.append(marker) }
        bytes.append(contentsOf: value)
        entries.append(Entry(keyStart: start, keyCount: key.count, valueCount: bytes.count - start - key.count, window: window))
    }

    /// Appends entry `i` of `other`.
    mutating func append(_ i: Int, of other: VersionBatch) {
        let e = other.entries[i]
        let start = bytes.count
        other.bytes.withUnsafeBytes { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[e.keyStart..<e.end])) }
        entries.append(Entry(keyStart: start, keyCount: e.keyCount, valueCount: e.valueCount, window: e.window))
    }

    /// Removes the last entry (its bytes too).
    mutating func removeLast() {
        let e = entries.removeLast()
        bytes.removeSubrange(e.keyStart...)
    }

    /// Empties the batch, keeping its storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each entry's key, window and value, in order. The buffers are valid only inside `body`.
    func forEach(_ body: (_ key: UnsafeRawBufferPointer, _ window: UInt32, _ value: UnsafeRawBufferPointer) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { raw in
            for e in entries {
                try body(UnsafeRawBufferPointer(rebasing: raw[e.keyStart..<e.valueStart]), e.window,
                         UnsafeRawBufferPointer(rebasing: raw[e.valueStart..<e.end]))
            }
        }
    }

    /// Whether entry `i`'s key and window are entry `j`'s of `other`.
    func sameVersion(_ i: Int, as j: Int, of other: VersionBatch) -> Bool {
        let a = entries[i], b = other.entries[j]
        guard a.window == b.window, a.keyCount == b.keyCount else { return false }
        return VersionBatch.compareKeys(a, in: self, b, in: other) == 0
    }

    /// The byte order of entry `a`'s key (in `x`) against entry `b`'s (in `y`), as LMDB orders keys: < 0, 0 or > 0.
    static func compareKeys(_ a: Entry, in x: VersionBatch, _ b: Entry, in y: VersionBatch) -> Int32 {
        x.bytes.withUnsafeBytes { xb in
            y.bytes.withUnsafeBytes { yb in
                ViewStore.compareBytes(UnsafeRawBufferPointer(rebasing: xb[a.keyStart..<a.valueStart]),
                                       UnsafeRawBufferPointer(rebasing: yb[b.keyStart..<b.valueStart]))
            }
        }
    }
}
