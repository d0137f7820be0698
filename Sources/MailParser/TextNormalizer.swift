/// Line-ending and NUL clean-up of decoded text bytes (memchr driven).
enum TextNormalizer {
    /// CRLF and bare CR become LF and NUL bytes are removed; nil when the
    /// bytes contain neither CR nor NUL (nothing to do).
    static func normalize(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard needsWork(b) else { return nil }
        return [UInt8](unsafeUninitializedCapacity: b.count) { ob, initialized in
            initialized = normalize(b, into: ob)
        }
    }

    /// Whether the bytes contain a CR or a NUL (`normalize` changes them).
    static func needsWork(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteScan.find(ASCII.cr, in: b, from: 0, to: b.count) != nil
            || ByteScan.find(ASCII.nul, in: b, from: 0, to: b.count) != nil
    }

    /// Writes `b` normalized (as `normalize`) into `ob`, which has room for at least `b.count` bytes; returns the
    /// bytes written (never more than `b.count`). Lets a caller normalize straight into the storage of the `String`
    /// it makes, instead of into an array first and copying that.
    static func normalize(_ b: UnsafeBufferPointer<UInt8>, into ob: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let n = b.count
        precondition(ob.count >= n, "normalize needs room for the whole input")
        var o = 0
        var i = 0
        // Next positions of CR and NUL, refreshed only once passed (so the whole run is linear).
        var nextCR = ByteScan.find(ASCII.cr, in: b, from: 0, to: n) ?? n
        var nextNUL = ByteScan.find(ASCII.nul, in: b, from: 0, to: n) ?? n
        while i < n {
            if nextCR < i { nextCR = ByteScan.find(ASCII.cr, in: b, from: i, to: n) ?? n }
            if nextNUL < i { nextNUL = ByteScan.find(ASCII.nul, in: b, from: i, to: n) ?? n }
            // Copy the run up to the next CR or NUL in bulk.
            let stop = min(nextCR, nextNUL)
            if stop > i, let src = b.baseAddress, let dst = ob.baseAddress {
                (dst + o).update(from: src + i, count: stop - i)
                o += stop - i
            }
            i = stop
            guard i < n else { break }
            if b[i] == ASCII.cr {
                ob[o] = ASCII.lf
                o += 1
                i += (i + 1 < n && b[i + 1] == ASCII.lf) ? 2 : 1
            } else {
                i += 1  // NUL
            }
        }
        return o
    }
}
