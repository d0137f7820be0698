/// A Bloom filter over the keys put into one table that was empty when its fold began: when it says a key was
/// never put, the key is surely not in the table, and a lookup can answer "none" without walking the B-tree.
///
/// Why: most lookups of a rebuild are of keys no table has yet (a new message's id, its Message-ID; 70-80%
/// of the views' lookups in a replay of the generated 100K corpus), and each one walks a B-tree to a leaf
/// that is then unmapped again under the memory budget: faults and unmapping were ~40% of a 1M replay's CPU.
///
/// Pure and in memory. Keys are only ever added (a deleted key stays "maybe": the lookup then reads the
/// table, which answers), so it never says "absent" for a key that is there. Blocked: each key's bits lie
/// in one 64-byte block (one cache line), 10 bits per key and 5 probes (~2% false "maybe"). The filter grows
/// in layers of doubling capacity (16K keys first), so its memory follows the keys put: at most ~2.5 bytes
/// per key (1.25 when the newest layer is full).
struct AbsentKeyFilter {
    /// One fixed-size Bloom filter of `blocks` 512-bit blocks.
    private struct Layer {
        var words: [UInt64]
        let blocks: Int
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            blocks = Layer.blocks(for: capacity)
            words = [UInt64](repeating: 0, count: blocks * 8)
        }

        /// The 64-byte blocks a layer of `capacity` keys takes.
        static func blocks(for capacity: Int) -> Int { max(1, capacity * AbsentKeyFilter.bitsPerKey / 512) }

        mutating func insert(_ h: UInt64) {
            let base = AbsentKeyFilter.block(h, of: blocks) * 8
            var bits = AbsentKeyFilter.probeBits(h)
            for _ in 0..<AbsentKeyFilter.probes {
                let bit = Int(bits & 511)
                words[base + bit >> 6] |= 1 << UInt64(bit & 63)
                bits >>= 9
            }
            count += 1
        }

        func mightContain(_ h: UInt64) -> Bool {
            let base = AbsentKeyFilter.block(h, of: blocks) * 8
            var bits = AbsentKeyFilter.probeBits(h)
            for _ in 0..<AbsentKeyFilter.probes {
                let bit = Int(bits & 511)
                if words[base + bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
                bits >>= 9
            }
            return true
        }
    }

    static let bitsPerKey = 10
    static let probes = 5
    static let firstCapacity = 16_384

    private var layers: [Layer] = []
    /// The filter's memory in bytes.
    private(set) var bytes = 0

    /// The hash of `key` the layers probe: SipHash (the standard library's `Hasher`, seeded per process: the
    /// filter is never stored).
    static func hash(_ key: UnsafeRawBufferPointer) -> UInt64 {
        var h = Hasher()
        h.combine(bytes: key)
        return UInt64(bitPattern: Int64(h.finalize()))
    }

    /// The block of `blocks` that `h` falls in (its upper half scaled to the range: no division).
    static func block(_ h: UInt64, of blocks: Int) -> Int {
        Int(((h >> 32) &* UInt64(blocks)) >> 32)
    }

    /// Five 9-bit bit positions within a block, from the lower half of `h` mixed again (so they do not
    /// repeat the block's bits).
    static func probeBits(_ h: UInt64) -> UInt64 {
        var x = h &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        return x
    }

    /// Records that `key` was put (adding a layer of `nextLayerBytes` when `full`).
    mutating func insert(_ key: [UInt8]) {
        key.withUnsafeBytes { insert($0) }
    }

    /// Records that `key` was put (adding a layer of `nextLayerBytes` when `full`).
    mutating func insert(_ key: UnsafeRawBufferPointer) {
        if full {
            layers.append(Layer(capacity: nextCapacity))
            bytes += layers[layers.count - 1].words.count * 8
        }
        layers[layers.count - 1].insert(AbsentKeyFilter.hash(key))
    }

    /// False when `key` was surely never put; true when it may have been.
    func mightContain(_ key: [UInt8]) -> Bool {
        if layers.isEmpty { return false }
        let h = key.withUnsafeBytes { AbsentKeyFilter.hash($0) }
        for i in layers.indices where layers[i].mightContain(h) { return true }
        return false
    }

    /// The capacity of the next layer: double the newest one's.
    private var nextCapacity: Int { layers.last.map { $0.capacity * 2 } ?? AbsentKeyFilter.firstCapacity }

    /// The bytes the next layer would take (what `insert` grows by when `full`).
    var nextLayerBytes: Int { Layer.blocks(for: nextCapacity) * 64 }

    /// Whether the next insert adds a layer.
    var full: Bool { layers.last.map { $0.count >= $0.capacity } ?? true }
}
