/// Charset conversion for mail text: fast paths for UTF-8, US-ASCII,
/// ISO-8859-1 and Windows-1252 in Swift, everything else through glibc
/// `iconv`. Never fails: undecodable bytes become U+FFFD.
package enum Charsets {
    /// Decodes `bytes` declared to be in `charset` (a MIME charset name or
    /// alias, or nil when none was declared) to a String.
    ///
    /// - Returns: the text and a warning when the charset was unknown or the
    ///   bytes were not valid in it (or were 8-bit although declared US-ASCII
    ///   and not valid UTF-8, in which case Windows-1252 is used).
    package static func decode(_ bytes: some Collection<UInt8>, charset: String?) -> (String, ParseWarning?) {
        if let r = bytes.withContiguousStorageIfAvailable({ decode(buffer: $0, charset: charset) }) {
            return r
        }
        let copy = Array(bytes)
        return copy.withUnsafeBufferPointer { decode(buffer: $0, charset: charset) }
    }

    /// The canonical (iconv) name for a MIME charset name or alias, for
    /// example `"cp1252"` -> `"WINDOWS-1252"`, `"x-sjis"` -> `"CP932"`,
    /// `"ks_c_5601-1987"` -> `"CP949"`. Unrecognised names are returned
    /// trimmed and uppercased.
    package static func normalizedName(_ charset: String) -> String {
        switch kind(of: charset) {
        case .utf8: return "UTF-8"
        case .ascii: return "US-ASCII"
        case .latin1: return "ISO-8859-1"
        case .windows1252: return "WINDOWS-1252"
        case .unknown8bit: return "UNKNOWN-8BIT"
        case .iconv(let name): return name
        }
    }

    /// Decodes bytes from a buffer. See ``decode(_:charset:)``. `prefix`: `buffer` is a prefix of the text, cut
    /// wherever its window ended, so a character of an iconv charset begun and not finished at its end (a lead
    /// byte of Shift_JIS, GB18030 or Big5, half an ISO-2022 escape, a UTF-16 high surrogate) is left out, not
    /// replaced by U+FFFD with a warning (UTF-8's own cut is made before: ``TextWindow/completeUTF8(_:)``).
    static func decode(buffer: UnsafeBufferPointer<UInt8>, charset: String?, prefix: Bool = false) -> (String, ParseWarning?) {
        let k: Kind = charset.map { kind(of: $0) } ?? .ascii
        switch k {
        case .utf8:
            if let s = String(validating: buffer, as: UTF8.self) { return (s, nil) }
            return (String(decoding: buffer, as: UTF8.self),
                    ParseWarning(code: .invalidCharsetBytes, detail: "invalid UTF-8 replaced"))
        case .ascii, .unknown8bit:
            return decodeUnlabelled(buffer)
        case .latin1, .windows1252:
            return (decodeWindows1252(buffer), nil)
        case .iconv(let name):
            if isASCIICompatible(name), isPlainASCII(buffer) {
                return (String(decoding: buffer, as: UTF8.self), nil)
            }
            if let (text, invalid) = iconvDecode(buffer, from: name, prefix: prefix) {
                return (text, invalid ? ParseWarning(code: .invalidCharsetBytes, detail: "invalid \(name) bytes replaced") : nil)
            }
            // Unknown to iconv: keep ASCII, UTF-8 if it is valid, else U+FFFD.
            let trimmed = String(charset?.prefix(40) ?? "")
            let warning = ParseWarning(code: .unknownCharset, detail: "unknown charset \(trimmed)")
            if let s = String(validating: buffer, as: UTF8.self) { return (s, warning) }
            return (decodeASCIIReplacing(buffer), warning)
        }
    }

    /// Whether `decode(buffer:charset:)` gives `buffer`'s own bytes as they are, with no warning: ASCII in an
    /// ASCII-compatible charset, or valid UTF-8 declared UTF-8, US-ASCII or nothing. Then the text can be made
    /// straight from the bytes (`MIMEPart.decodeText`), with no copy converted first. Stays true when CR, CRLF
    /// and NUL are normalised away (`TextNormalizer`), which keeps ASCII ASCII and valid UTF-8 valid.
    static func decodesAsUTF8(_ buffer: UnsafeBufferPointer<UInt8>, charset: String?) -> Bool {
        let k: Kind = charset.map { kind(of: $0) } ?? .ascii
        switch k {
        case .utf8, .ascii, .unknown8bit:
            return ByteScan.isASCII(buffer, from: 0, to: buffer.count) || isValidUTF8(buffer)
        case .latin1, .windows1252:
            return ByteScan.isASCII(buffer, from: 0, to: buffer.count)
        case .iconv(let name):
            return isASCIICompatible(name) && isPlainASCII(buffer)
        }
    }

    /// Text declared US-ASCII (or not labelled at all): ASCII if it is,
    /// else UTF-8 if valid, else Windows-1252.
    static func decodeUnlabelled(_ buffer: UnsafeBufferPointer<UInt8>) -> (String, ParseWarning?) {
        if ByteScan.isASCII(buffer, from: 0, to: buffer.count) {
            return (String(decoding: buffer, as: UTF8.self), nil)
        }
        if let s = String(validating: buffer, as: UTF8.self) { return (s, nil) }
        return (decodeWindows1252(buffer),
                ParseWarning(code: .invalidCharsetBytes, detail: "8-bit data in us-ascii text decoded as windows-1252"))
    }

    /// Whether the buffer is valid UTF-8.
    static func isValidUTF8(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = buffer.count
        guard let base = buffer.baseAddress else { return true }
        while i < n {
            // Runs of ASCII 8 bytes at a time.
            while i + 8 <= n && UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            guard i < n else { break }
            let b0 = buffer[i]
            if b0 < 0x80 { i += 1; continue }
            let len: Int
            var minNext: UInt8 = 0x80
            var maxNext: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: len = 2
            case 0xE0: len = 3; minNext = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: len = 3
            case 0xED: len = 3; maxNext = 0x9F
            case 0xF0: len = 4; minNext = 0x90
            case 0xF1...0xF3: len = 4
            case 0xF4: len = 4; maxNext = 0x8F
            default: return false
            }
            if i + len > n { return false }
            let b1 = buffer[i + 1]
            if b1 < minNext || b1 > maxNext { return false }
            var k = 2
            while k < len {
                let b = buffer[i + k]
                if b < 0x80 || b > 0xBF { return false }
                k += 1
            }
            i += len
        }
        return true
    }

    /// Windows-1252 code points for bytes 0x80...0x9F (WHATWG mapping;
    /// undefined bytes map to the C1 control of the same value).
    static let cp1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// Decodes Windows-1252 (also used for ISO-8859-1, as browsers do).
    static func decodeWindows1252(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(buffer.count + buffer.count / 2)
        for b in buffer {
            if b < 0x80 {
                out.append(b)
                continue
            }
            let cp: UInt32 = b < 0xA0 ? cp1252High[Int(b - 0x80)] : UInt32(b)
            appendUTF8(cp, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ASCII kept, every other byte replaced by U+FFFD.
    static func decodeASCIIReplacing(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(buffer.count)
        for b in buffer {
            if b < 0x80 { out.append(b) } else { out.append(contentsOf: [0xEF, 0xBF, 0xBD]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the UTF-8 encoding of a code point.
    @inline(__always)
    static func appendUTF8(_ cp: UInt32, to out: inout [UInt8]) {
        switch cp {
        case 0..<0x80:
            out.append(UInt8(cp))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (cp >> 6)))
            out.append(UInt8(0x80 | (cp & 0x3F)))
        case 0x800..<0x10000:
            if cp >= 0xD800 && cp < 0xE000 {
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                return
            }
            out.append(UInt8(0xE0 | (cp >> 12)))
            out.append(UInt8(0x80 | ((cp >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (cp & 0x3F)))
        case 0x10000...0x10FFFF:
            out.append(UInt8(0xF0 | (cp >> 18)))
            out.append(UInt8(0x80 | ((cp >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((cp >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (cp & 0x3F)))
        default:
            out.append(contentsOf: [0xEF, 0xBF, 0xBD])
        }
    }

    /// Whether the charset uses 16- or 32-bit code units (so CR, LF and NUL
    /// bytes do not stand for themselves).
    static func isWide(_ charset: String) -> Bool {
        guard case .iconv(let name) = kind(of: charset) else { return false }
        return codeUnit(name) > 1
    }

    /// The bytes of one code unit of an iconv charset name: 4 for UTF-32 and UCS-4, 2 for UTF-16, UCS-2 and
    /// glibc's UNICODE, 1 for every other charset.
    static func codeUnit(_ name: String) -> Int {
        if name.hasPrefix("UTF-32") || name.hasPrefix("UCS-4") || name.hasPrefix("UCS4") { return 4 }
        if name.hasPrefix("UTF-16") || name.hasPrefix("UCS") || name.hasPrefix("UNICODE") { return 2 }
        return 1
    }

    /// Bytes below 0x80 and without the shift/escape bytes used by
    /// ISO-2022 encodings.
    private static func isPlainASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard ByteScan.isASCII(buffer, from: 0, to: buffer.count) else { return false }
        for b in buffer where b == 0x1B || b == 0x0E || b == 0x0F { return false }
        return true
    }

    /// Whether ASCII bytes mean ASCII characters in this charset.
    static func isASCIICompatible(_ name: String) -> Bool {
        codeUnit(name) == 1 && !(name.hasPrefix("UTF-7") || name.hasPrefix("HZ"))
    }
}
