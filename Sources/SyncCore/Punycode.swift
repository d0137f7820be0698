/// Punycode (RFC 3492): the encoding of a string of Unicode code points in the letters, digits and hyphens of a DNS
/// label, as IDNA writes a non-ASCII label (`bücher` is `bcher-kva`, in DNS `xn--bcher-kva`). Only the encoder is
/// here, exactly RFC 3492 section 6.3 with its parameters (section 5); pure, no I/O.
package enum Punycode {
    private static let base = 36, tmin = 1, tmax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 0x80

    /// The most code points encoded: a DNS label holds at most 63 bytes, so a longer input can never be one.
    package static let maxInputScalars = 63

    /// The Punycode of `input` (case kept on its ASCII code points, as RFC 3492 does); nil for an input over
    /// `maxInputScalars` code points.
    package static func encode(_ input: [Unicode.Scalar]) -> String? {
        guard input.count <= maxInputScalars else { return nil }
        let codes = input.map { Int($0.value) }
        var output: [UInt8] = codes.filter { $0 < initialN }.map { UInt8($0) }
        let basic = output.count
        var handled = basic
        if basic > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN, delta = 0, bias = initialBias
        // With at most 63 code points below 0x110000 every sum stays far below Int.max: no overflow check is needed.
        while handled < codes.count {
            guard let m = codes.filter({ $0 >= n }).min() else { break }
            delta += (m - n) * (handled + 1)
            n = m
            for c in codes {
                if c < n { delta += 1 }
                guard c == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tmin : (k >= bias + tmax ? tmax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, points: handled + 1, first: handled == basic)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The basic code point of digit `d` (0-35): a-z, then 0-9.
    private static func digit(_ d: Int) -> UInt8 {
        d < 26 ? UInt8(ascii: "a") + UInt8(d) : UInt8(ascii: "0") + UInt8(d - 26)
    }

    /// The bias adaptation of RFC 3492 section 6.1.
    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tmin) * tmax) / 2 {
            delta /= base - tmin
            k += base
        }
        return k + (base - tmin + 1) * delta / (delta + skew)
    }
}
