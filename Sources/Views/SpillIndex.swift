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
