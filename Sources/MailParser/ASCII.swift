/// Byte constants and small classification helpers for ASCII text.
enum ASCII {
    static let nul: UInt8 = 0x00
    static let tab: UInt8 = 0x09
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let ampersand: UInt8 = 0x26
    static let apostrophe: UInt8 = 0x27
    static let openParen: UInt8 = 0x28
    static let closeParen: UInt8 = 0x29
    static let star: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let lessThan: UInt8 = 0x3C
    static let equals: UInt8 = 0x3D
    static let greaterThan: UInt8 = 0x3E
    static let question: UInt8 = 0x3F
    static let at: UInt8 = 0x40
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let underscore: UInt8 = 0x5F
    static let exclamation: UInt8 = 0x21
    static let percent: UInt8 = 0x25

    /// Whether `b` is a space or a horizontal tab.
    @inline(__always) static func isWSP(_ b: UInt8) -> Bool { b == space || b == tab }

    /// Whether `b` is any ASCII whitespace (space, tab, CR, LF, FF, VT).
    @inline(__always) static func isWhitespace(_ b: UInt8) -> Bool {
        b == space || (b >= 0x09 && b <= 0x0D)
    }

    /// Whether `b` is an ASCII digit.
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= zero && b <= nine }

    /// Whether `b` is an ASCII letter.
    @inline(__always) static func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// The ASCII lowercase form of `b` (other bytes unchanged).
    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b }

    /// The value of a hexadecimal digit, or nil.
    @inline(__always) static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b &- 0x30
        case 0x41...0x46: return b &- 0x41 &+ 10
        case 0x61...0x66: return b &- 0x61 &+ 10
        default: return nil
        }
    }

    /// An ASCII-lowercased copy of a string (non-ASCII characters unchanged).
    static func lowercased(_ s: String) -> String {
        s.withBytes { b in
            guard b.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return s }
            return String(decoding: b.map { lower($0) }, as: UTF8.self)
        }
    }

    /// Whether two strings are equal ignoring ASCII case (fast, on UTF-8).
    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        let ua = a.utf8
        let ub = b.utf8
        guard ua.count == ub.count else { return false }
        if a == b { return true }
        let fast = ua.withContiguousStorageIfAvailable { pa in
            ub.withContiguousStorageIfAvailable { pb in
                var i = 0
                while i < pa.count {
                    if lower(pa[i]) != lower(pb[i]) { return false }
                    i += 1
                }
                return true
            }
        }
        if let result = fast ?? nil { return result }
        return equalsIgnoringCase(ua, ub)
    }

    /// Whether two byte sequences are equal ignoring ASCII case.
    static func equalsIgnoringCase<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where lower(x) != lower(y) { return false }
        return true
    }
}
