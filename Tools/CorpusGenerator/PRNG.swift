// Deterministic pseudo-random numbers: SplitMix64 for seeding and hashing,
// xoshiro256** for the streams. No floating point is used for decisions, so the
// same seed gives the same corpus on every platform.

/// One step of SplitMix64's output function: a good 64-bit mixer.
@inline(__always)
func mix64(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

/// Mixes several values into one 64-bit hash (order-sensitive).
@inline(__always)
func mix64(_ a: UInt64, _ b: UInt64) -> UInt64 {
    mix64(mix64(a) ^ (b &* 0xD6E8_FEB8_6659_FD93))
}

@inline(__always)
func mix64(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 {
    mix64(mix64(a, b) ^ (c &* 0x9FB2_1C65_1E98_DF25))
}

/// SplitMix64 generator (used to expand a seed into xoshiro state, and wherever a seeded
/// `RandomNumberGenerator` is wanted).
package struct SplitMix64: Sendable, RandomNumberGenerator {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    @inline(__always)
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// xoshiro256** 1.0 (Blackman & Vigna).
package struct Xoshiro256: Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    package init(seed: UInt64) {
        var sm = SplitMix64(seed: seed)
        s0 = sm.next()
        s1 = sm.next()
        s2 = sm.next()
        s3 = sm.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    @inline(__always)
    package mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    @inline(__always)
    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 &- k))
    }

    /// Uniform integer in `0 ..< n` (n > 0), by multiply-high (bias < 2^-40 for our n).
    @inline(__always)
    package mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: UInt64(n).multipliedFullWidth(by: next()).high)
    }

    /// Uniform integer in `lo ... hi`.
    @inline(__always)
    package mutating func range(_ lo: Int, _ hi: Int) -> Int {
        lo + below(hi - lo + 1)
    }

    /// True with probability `perMille / 1000`.
    @inline(__always)
    package mutating func chance(_ perMille: Int) -> Bool {
        below(1000) < perMille
    }

    /// True with probability `per10k / 10000`.
    @inline(__always)
    package mutating func chance10k(_ per10k: Int) -> Bool {
        below(10_000) < per10k
    }

    @inline(__always)
    package mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// Picks an index according to integer weights.
    package mutating func weighted(_ weights: [Int]) -> Int {
        var total = 0
        for w in weights { total += w }
        var r = below(total)
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }

    /// Fills `count` random bytes at the end of `out`.
    package mutating func appendBytes(_ count: Int, to out: inout [UInt8]) {
        if count <= 0 { return }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: count))
        out.withUnsafeMutableBytes { buf in
            let base = buf.baseAddress! + start
            var i = 0
            while i + 8 <= count {
                base.storeBytes(of: next().littleEndian, toByteOffset: i, as: UInt64.self)
                i += 8
            }
            var v = next()
            while i < count {
                base.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: i, as: UInt8.self)
                v >>= 8
                i += 1
            }
        }
    }
}
