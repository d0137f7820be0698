/// The value of a version in a history table: a tag byte, then, for a cut key (`HistoryKey`), the key's length
/// (2 bytes, big-endian) and bytes, then the entry's value.
package enum HistoryValue {
    /// The entry was deleted (or did not exist) at the end of the window.
    static let deleted: UInt8 = 0
    /// The entry held the value that follows.
    static let present: UInt8 = 1
    /// Added to the tag when the key's own bytes follow it (a cut key).
    static let keyFollows: UInt8 = 2

    /// What a stored version says: whether the entry is present, its key's bytes when kept here, its value.
    struct Parsed {
        var present: Bool
        var key: UnsafeRawBufferPointer?
        var value: UnsafeRawBufferPointer
    }

    /// Parses a stored version, or nil when it is not one (a damaged file).
    static func parse(_ stored: UnsafeRawBufferPointer) -> Parsed? {
        guard let tag = stored.first, tag & ~(present | keyFollows) == 0 else { return nil }
        var at = 1
        var key: UnsafeRawBufferPointer?
        if tag & keyFollows != 0 {
            guard stored.count >= 3 else { return nil }
            let n = Int(stored[1]) << 8 | Int(stored[2])
            guard stored.count >= 3 + n else { return nil }
            key = UnsafeRawBufferPointer(rebasing: stored[3..<(3 + n)])
            at = 3 + n
        }
        return Parsed(present: tag & present != 0, key: key, value: UnsafeRawBufferPointer(rebasing: stored[at...]))
    }

    /// The bytes a version takes as a value: the tag, the key when cut, the value.
    static func size(key: UnsafeRawBufferPointer, cut: Bool, value: UnsafeRawBufferPointer?) -> Int {
        1 + (cut ? 2 + key.count : 0) + (value?.count ?? 0)
    }

    /// Writes a version into `out` (exactly `size` bytes).
    static func write(key: UnsafeRawBufferPointer, cut: Bool, value: UnsafeRawBufferPointer?, into out: UnsafeMutableRawBufferPointer) {
        var at = 0
        out[0] = (value == nil ? deleted : present) | (cut ? keyFollows : 0)
        at = 1
        if cut {
            out[1] = UInt8(truncatingIfNeeded: key.count >> 8)
            out[2] = UInt8(truncatingIfNeeded: key.count)
            if let base = key.baseAddress, key.count > 0 { (out.baseAddress! + 3).copyMemory(from: base, byteCount: key.count) }
            at = 3 + key.count
        }
        if let value, let base = value.baseAddress, value.count > 0 {
            (out.baseAddress! + at).copyMemory(from: base, byteCount: value.count)
        }
    }
}
