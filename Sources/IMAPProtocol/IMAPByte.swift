/// Byte constants and character classes of the IMAP grammar (RFC 3501 §9, RFC 9051 §9).
enum IMAPByte {
    static let nul: UInt8 = 0x00
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let percent: UInt8 = 0x25
    static let ampersand: UInt8 = 0x26
    static let openParen: UInt8 = 0x28
    static let closeParen: UInt8 = 0x29
    static let star: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let lessThan: UInt8 = 0x3C
    static let greaterThan: UInt8 = 0x3E
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let tilde: UInt8 = 0x7E

    /// The bytes `\r\n`.
    static let crlf: [UInt8] = [cr, lf]

    /// Whether `b` is an ASCII digit.
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= zero && b <= nine }

    /// The ASCII uppercase form of `b` (other bytes unchanged).
    @inline(__always) static func upper(_ b: UInt8) -> UInt8 { (b >= 0x61 && b <= 0x7A) ? b & 0xDF : b }

    /// Whether `b` is a control character (CTL in RFC 5234: 0x00–0x1F and 0x7F).
    @inline(__always) static func isControl(_ b: UInt8) -> Bool { b < 0x20 || b == 0x7F }

    /// Whether `b` may appear in an atom as sent by a server.
    ///
    /// This is ATOM-CHAR (any CHAR except atom-specials) widened to accept 8-bit bytes, which
    /// servers with UTF8=ACCEPT send unquoted; `]` is excluded so response codes terminate.
    @inline(__always) static func isAtomChar(_ b: UInt8) -> Bool {
        switch b {
        case 0x00...0x20, 0x7F, openParen, closeParen, openBrace, percent, star, quote, backslash, closeBracket:
            return false
        default:
            return true
        }
    }

    /// Whether `b` may appear in an unquoted astring (ASTRING-CHAR: ATOM-CHAR or `]`).
    @inline(__always) static func isAStringChar(_ b: UInt8) -> Bool { b == closeBracket || isAtomChar(b) }

    /// Whether `b` may appear in a bare token inside a generic value, a flag or a label:
    /// anything but space, controls, parentheses, `"` and `{`. `\`, `*`, `%`, `[` and `]` are
    /// accepted so flags such as `\Seen` and `\*` read as one token.
    @inline(__always) static func isLooseTokenChar(_ b: UInt8) -> Bool {
        switch b {
        case 0x00...0x20, 0x7F, openParen, closeParen, openBrace, quote:
            return false
        default:
            return true
        }
    }

    /// Whether `b` is a strict ATOM-CHAR as a client must send it (7-bit, no atom-specials).
    @inline(__always) static func isStrictAtomChar(_ b: UInt8) -> Bool { b < 0x80 && isAtomChar(b) }

    /// Whether `bytes` equals the ASCII `word`, ignoring ASCII case.
    static func equalsIgnoringCase(_ bytes: some Collection<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { w in
            var i = 0
            for b in bytes {
                if upper(b) != upper(w[i]) { return false }
                i += 1
            }
            return true
        }
    }

    /// Whether `bytes` equals the bytes of `word`, ignoring ASCII case.
    static func equalsIgnoringCase(_ bytes: some Collection<UInt8>, _ word: String) -> Bool {
        let w = word.utf8
        guard bytes.count == w.count else { return false }
        return zip(bytes, w).allSatisfy { upper($0) == upper($1) }
    }

    /// The bytes of `bytes` as an ASCII-uppercased String (8-bit bytes decoded leniently).
    static func upperString(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.map(upper), as: UTF8.self)
    }
}
