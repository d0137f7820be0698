/// Punycode (RFC 3492): the encoding of a string of Unicode code points in the letters, digits and hyphens of a DNS
/// label, as IDNA writes a non-ASCII label (`bücher` is `bcher-kva`, in DNS `xn--bcher-kva`). The encoder and the
/// decoder are exactly RFC 3492 sections 6.3 and 6.2 with its parameters (section 5); pure, no I/O.
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

    /// The code points `input` (the part of an A-label after `xn--`) encodes, or nil when it is not Punycode: longer
    /// than `maxInputBytes`, a basic part that is not ASCII, a digit that is not a letter or a digit (either case), a
    /// number cut off at the end, or a code point that is not a Unicode scalar (a surrogate, over U+10FFFF). The
    /// arithmetic is checked (RFC 3492 section 6.4): a number too large for `Int` is refused, not wrapped.
    package static func decode(_ input: some StringProtocol) -> [Unicode.Scalar]? {
        let bytes = Array(input.utf8)
        guard bytes.count <= maxInputBytes else { return nil }
        // The basic code points are those before the last delimiter (none when there is none).
        let delimiter = bytes.lastIndex(of: UInt8(ascii: "-"))
        var output: [Unicode.Scalar] = []
        if let delimiter {
            for b in bytes[..<delimiter] {
                guard b < 0x80 else { return nil }
                output.append(Unicode.Scalar(b))
            }
        }
        var n = initialN, i = 0, bias = initialBias
        var at = delimiter.map { $0 + 1 } ?? 0
        while at < bytes.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard at < bytes.count, let d = value(ofDigit: bytes[at]) else { return nil }
                at += 1
                let (product, over) = d.multipliedReportingOverflow(by: w)
                guard !over, case (let sum, false) = i.addingReportingOverflow(product) else { return nil }
                i = sum
                let t = k <= bias ? tmin : (k >= bias + tmax ? tmax : k - bias)
                if d < t { break }
                guard case (let next, false) = w.multipliedReportingOverflow(by: base - t) else { return nil }
                w = next
                k += base
            }
            bias = adapt(i - oldI, points: output.count + 1, first: oldI == 0)
            let step = i / (output.count + 1)
            guard step <= 0x10FFFF - n else { return nil }
            n += step
            i %= output.count + 1
            guard let scalar = Unicode.Scalar(UInt32(n)) else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }

    /// The most bytes `decode` reads: the 59 after `xn--` in a label of 63.
    package static let maxInputBytes = 59

    /// The value (0-35) of the Punycode digit `b`: a-z or A-Z, then 0-9; nil for any other byte.
    private static func value(ofDigit b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(b - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(b - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0")) + 26
        default: nil
        }
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
