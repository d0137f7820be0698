extension String {
    /// The string lowercased, as `lowercased()` gives it: itself when it has no capital ASCII letter and no non-ASCII
    /// byte (the common address, without a new string), lowercased byte by byte when it is ASCII, and through
    /// `lowercased()`'s Unicode mappings only when it is not.
    package var folded: String {
        var capitals = false
        for b in utf8 {
            if b >= 0x80 { return lowercased() }
            if (0x41...0x5A).contains(b) { capitals = true }
        }
        guard capitals else { return self }
        let count = utf8.count
        return String(unsafeUninitializedCapacity: count) { buf in
            for (i, b) in utf8.enumerated() { buf[i] = (0x41...0x5A).contains(b) ? b | 0x20 : b }
            return count
        }
    }
}
