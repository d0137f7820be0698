extension UIDSet {
    /// The members from 1 up to `largest`, with `*` standing for `largest`: computed on the ranges,
    /// never expanding them, so `1:4294967295` from a hostile server costs nothing.
    package func clamped(to largest: UInt32) -> UIDSet {
        guard largest > 0 else { return UIDSet() }
        var out: [Range] = []
        out.reserveCapacity(ranges.count)
        for r in ranges {
            if r.lower == .star {
                out.append(Range(.uid(largest), .uid(largest)))
                continue
            }
            let lower = Swift.max(r.lower.key, 1)
            let upper = Swift.min(r.upper.key, UInt64(largest))
            guard lower <= upper else { continue }
            out.append(Range(.uid(UInt32(lower)), .uid(UInt32(upper))))
        }
        return UIDSet(ranges: out)
    }

    /// The members of `uids` that are in the set, in their order, without expanding the set.
    package func members(of uids: some Sequence<UInt32>) -> [UInt32] {
        uids.filter { contains($0) }
    }
}
