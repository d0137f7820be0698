import Projections

/// The key layout of the views' history tables (`ViewHistory`): each version of a view table's entry is stored
/// under the entry's key, escaped, a terminator and the number of the window it was written in.
///
/// `escape(k) ‖ 00 00 ‖ window (4 bytes, big-endian)`, where `escape` writes each 0x00 byte of `k` as `00 FF`.
/// An escaped key never holds `00 00`, so:
/// - the versions of one key lie together, oldest window first, and every entry that starts with a key's
///   `escape(k) ‖ 00 00` is a version of that key (`body`);
/// - keys keep their order (a key before the longer keys it starts, as LMDB orders them), so a scan of the
///   history in key order meets the view's keys in the view's order.
///
/// A key whose escaped form would not fit LMDB's 511-byte key limit (over ~250 bytes, half of them zero bytes:
/// no key a projector builds with `Key` comes near) is cut: the first `cutBytes` of its escaped form (not
/// splitting an escaped zero), `00 01`, a 64-bit hash of the whole key, then the terminator and window. Its
/// versions still lie together and are found by lookups; its own bytes are kept in the version's value
/// (`HistoryValue`), since the key cannot be read back from the cut form. Among keys sharing those first
/// bytes, cut keys order by their hash rather than by their bytes.
package enum HistoryKey {
    /// LMDB's key limit.
    static let maxKeyBytes = 511
    /// What follows the body: the window.
    static let windowBytes = 4
    /// The most bytes of an escaped key kept before the hash of a cut one.
    static let cutBytes = 480

    /// The body of `key`'s versions (`escape(key) ‖ 00 00`, or the cut form) appended to `out`. Returns whether
    /// the key was cut (its bytes must then travel in the value).
    @discardableResult
    package static func appendBody(of key: UnsafeRawBufferPointer, to out: inout [UInt8]) -> Bool {
        let start = out.count
        var zeros = 0
        for b in key where b == 0 { zeros += 1 }
        if key.count + zeros + 2 + windowBytes <= maxKeyBytes {
            if zeros == 0 {
                out.append(contentsOf: key)
            } else {
                for b in key {
                    out.append(b)
                    if b == 0 { out.append(0xFF) }
                }
            }
            out.append(0)
            out.append(0)
            return false
        }
        // Cut: the escaped form's first bytes, never ending inside an escaped zero.
        for b in key {
            if out.count - start + (b == 0 ? 2 : 1) > cutBytes { break }
            out.append(b)
            if b == 0 { out.append(0xFF) }
        }
        out.append(0)
        out.append(1)
        var h = Key.fnv1a(UnsafeBufferPointer(start: key.baseAddress?.assumingMemoryBound(to: UInt8.self), count: key.count))
        for _ in 0..<8 {
            out.append(UInt8(truncatingIfNeeded: h >> 56))
            h <<= 8
        }
        out.append(0)
        out.append(0)
        return true
    }

    /// The key of `key`'s version written in `window`, into `out` (emptied first). Returns whether it was cut.
    @discardableResult
    package static func encode(_ key: UnsafeRawBufferPointer, window: UInt32, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        let cut = appendBody(of: key, to: &out)
        appendWindow(window, to: &out)
        return cut
    }

    /// Appends a window number, big-endian.
    package static func appendWindow(_ window: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: window >> 24))
        out.append(UInt8(truncatingIfNeeded: window >> 16))
        out.append(UInt8(truncatingIfNeeded: window >> 8))
        out.append(UInt8(truncatingIfNeeded: window))
    }

    /// The window of a stored version's key, or nil when the key is not one (too short, no terminator).
    package static func window(of stored: UnsafeRawBufferPointer) -> UInt32? {
        let n = stored.count
        guard n >= 2 + windowBytes, stored[n - 6] == 0, stored[n - 5] == 0 else { return nil }
        return UInt32(stored[n - 4]) << 24 | UInt32(stored[n - 3]) << 16 | UInt32(stored[n - 2]) << 8 | UInt32(stored[n - 1])
    }

    /// The body of a stored version's key (all but its window), or nil when the key is not one.
    package static func body(of stored: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard window(of: stored) != nil else { return nil }
        return UnsafeRawBufferPointer(rebasing: stored[0..<(stored.count - windowBytes)])
    }

    /// The view key of an uncut body (`escape(k) ‖ 00 00`) into `out` (emptied first); false when the body is
    /// not a well-formed escaped key (a lone zero byte) or is a cut one.
    package static func decode(body: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        let n = body.count - 2
        guard n >= 0, body[n] == 0, body[n + 1] == 0 else { return false }
        var i = 0
        while i < n {
            let b = body[i]
            if b == 0 {
                guard i + 1 < n, body[i + 1] == 0xFF else { return false }
                i += 2
            } else {
                i += 1
            }
            out.append(b)
        }
        return true
    }
}
