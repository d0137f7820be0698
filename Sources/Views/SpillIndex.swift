/// Which spilled run (`SpilledRuns`) last took a key, by a 64-bit hash of the key: an open-addressing table of
/// 8-byte slots, each the hash's upper 56 bits and the run's number plus one (0: empty), at most two thirds full
/// (12-24 bytes a key). Two keys whose hashes share those 56 bits share a slot: the caller then finds a key in a run
/// that does not hold it, and looks through every run.
struct SpillIndex {
    private var slots: [UInt64] = []
    private var used = 0

    /// The number of keys held.
    var count: Int { used }
    /// The bytes the table takes.
    var bytes: Int { slots.capacity * 8 }

    private static func fingerprint(_ hash: UInt64) -> UInt64 {
        let f = hash & ~0xFF
        return f == 0 ? 0x100 : f
    }

    /// The run that last took the key of `hash`, if any.
    func run(for hash: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        let f = SpillIndex.fingerprint(hash)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: f >> 8) & mask
        while true {
            let s = slots[i]
            if s == 0 { return nil }
            if s & ~0xFF == f { return Int(s & 0xFF) - 1 }
            i = (i + 1) & mask
        }
    }

    /// Records that run `run` (0...254) took the key of `hash`.
    mutating func set(_ hash: UInt64, run: Int) {
        precondition(run >= 0 && run < 255, "a run number past the index's")
        if (used + 1) * 3 > slots.count * 2 { grow() }
        let f = SpillIndex.fingerprint(hash)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: f >> 8) & mask
        while true {
            let s = slots[i]
            if s == 0 {
                slots[i] = f | UInt64(run + 1)
                used += 1
                return
            }
            if s & ~0xFF == f {
                slots[i] = f | UInt64(run + 1)
                return
            }
            i = (i + 1) & mask
        }
    }

    /// Records that run `run` took the keys of `hashes` (one run's keys of a table, each once), inserted grouped by the
    /// part of the table (1/256 of it) their slots lie in, one counting pass and one placing pass, so the inserts sweep
    /// the table part by part: a run's keys come in key order, and their slots at random, each insert then a miss of the
    /// CPU's caches and TLB (~28% of a rebuild's write-out, `perf` 2026-12-05). Any order gives the same table: every key
    /// of the call has the same run.
    mutating func set(_ hashes: [UInt64], run: Int) {
        reserve(hashes.count)
        let bits = slots.count.trailingZeroBitCount
        guard hashes.count >= SpillIndex.groupedMinimum, bits > 8 else {
            for h in hashes { set(h, run: run) }
            return
        }
        let shift = bits - 8
        let mask = slots.count - 1
        @inline(__always) func part(_ h: UInt64) -> Int {
            (Int(truncatingIfNeeded: SpillIndex.fingerprint(h) >> 8) & mask) >> shift
        }
        var starts = [Int](repeating: 0, count: 257)
        for h in hashes { starts[part(h) + 1] += 1 }
        for i in 1...256 { starts[i] += starts[i - 1] }
        var grouped = [UInt64](repeating: 0, count: hashes.count)
        for h in hashes {
            let p = part(h)
            grouped[starts[p]] = h
            starts[p] += 1
        }
        for h in grouped { set(h, run: run) }
    }

    /// The fewest keys `set(_:run:)` groups (fewer: inserted as they come).
    static let groupedMinimum = 1_024

    /// Makes room for `n` more keys.
    mutating func reserve(_ n: Int) {
        while (used + n) * 3 > slots.count * 2 { grow() }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: max(1 << 12, old.count * 2))
        let mask = slots.count - 1
        for s in old where s != 0 {
            var i = Int(truncatingIfNeeded: s >> 8) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = s
        }
    }

    /// Forgets every key and frees the table.
    mutating func removeAll() {
        slots = []
        used = 0
    }
}
