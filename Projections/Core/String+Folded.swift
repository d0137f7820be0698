extension String {
    /// The string lowercased, as `lowercased()` gives it: itself when it has no capital ASCII letter and no non-ASCII
    /// byte (the common address, without a new string), lowercased byte by byte when it is ASCII, and otherwise
    /// scalar by scalar as `lowercased()` does (each scalar's `lowercaseMapping`), the ASCII ones by their byte:
    /// `lowercased()` makes a string of every scalar's mapping, which made a thread row's senders (~20% of them
    /// with a non-ASCII name in their address here) the largest part of recomputing it.
    package var folded: String {
        var capitals = false
        var ascii = true
        for b in utf8 {
            if b >= 0x80 { ascii = false; break }
            if (0x41...0x5A).contains(b) { capitals = true }
        }
        if ascii {
            guard capitals else { return self }
            let count = utf8.count
            return String(unsafeUninitializedCapacity: count) { buf in
                for (i, b) in utf8.enumerated() { buf[i] = Self.lowered(b) }
                return count
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                out.append(Self.lowered(UInt8(v)))
            } else {
                out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An ASCII byte lowercased.
    private static func lowered(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b | 0x20 : b }
}
