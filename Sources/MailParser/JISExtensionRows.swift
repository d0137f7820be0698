import Glibc

/// Reads again a character glibc's ISO-2022-JP-2 or EUC-JP converter rejected: a JIS X 0208 code in the NEC
/// row 13 (①, ㈱, №, ...) or the NEC-selected IBM rows 89 to 92 (髙, 﨑, ⅰ, ...), which Windows and Outlook
/// write and which the WHATWG decoders (browsers, Thunderbird) read from their jis0208 index. glibc has no
/// ISO-2022-JP converter with these rows, and its EUC-JP-MS puts rows 89 to 92 in the private use area; its
/// CP932 has both, so the code is turned into its Shift_JIS bytes and converted from CP932. Only a rejected
/// character is read so: text glibc converts comes out as before. A rejected two-byte character is replaced
/// as a whole (one U+FFFD), not byte by byte, so the bytes after it are not read from its middle.
///
/// Used by one conversion (`Charsets.iconvDecode`) on one thread; `finish()` gives back its descriptor.
struct JISExtensionRows {
    /// How the converted text encodes a JIS X 0208 character.
    enum Form {
        /// ISO-2022-JP: two bytes 0x21...0x7E after `ESC $ B` or `ESC $ @`.
        case iso2022
        /// EUC-JP: two bytes 0xA1...0xFE.
        case euc
    }

    let form: Form
    /// The CP932 descriptor, taken at the first extension-row character.
    private var cp932: iconv_t?
    /// ISO-2022-JP: the offset up to which escape sequences were followed.
    private var scanned = 0
    /// ISO-2022-JP: whether the designated set there is a two-byte one, and JIS X 0208 among them.
    private var twoByte = false
    private var jisX0208 = false

    /// The reader for an iconv charset name, or nil when the charset has no JIS X 0208 extension rows to read.
    init?(charset: String) {
        switch charset {
        case "ISO-2022-JP-2", "ISO-2022-JP": form = .iso2022
        case "EUC-JP": form = .euc
        default: return nil
        }
    }

    /// The sequence iconv rejected at `at` in `buffer`: how many bytes it takes, and its UTF-8 when it is an
    /// extension-row character (nil: it is replaced by U+FFFD); nil when it is no JIS X 0208 character (EUC-JP's
    /// other rejected sequences are ``MultibyteResync``'s). Calls come with `at` growing.
    mutating func reread(_ buffer: UnsafeBufferPointer<UInt8>, at: Int) -> (skip: Int, utf8: [UInt8]?)? {
        let n = buffer.count
        switch form {
        case .euc:
            guard at + 1 < n, (0xA1...0xFE).contains(buffer[at]), (0xA1...0xFE).contains(buffer[at + 1]) else {
                return nil
            }
            return (2, extensionRow(buffer[at] - 0x80, buffer[at + 1] - 0x80))
        case .iso2022:
            follow(buffer, to: at)
            guard twoByte, at + 1 < n, (0x21...0x7E).contains(buffer[at]), (0x21...0x7E).contains(buffer[at + 1]) else {
                return (1, nil)
            }
            scanned = at + 2
            return (2, jisX0208 ? extensionRow(buffer[at], buffer[at + 1]) : nil)
        }
    }

    /// Gives back the CP932 descriptor.
    mutating func finish() {
        if let cd = cp932 { IconvPool.shared.give(cd, charset: "CP932") }
        cp932 = nil
    }

    /// Follows the escape sequences from `scanned` to `end`: which set is designated at `end`.
    private mutating func follow(_ b: UnsafeBufferPointer<UInt8>, to end: Int) {
        var i = scanned
        while i < end {
            guard b[i] == 0x1B, i + 2 < b.count else {
                i += 1
                continue
            }
            switch (b[i + 1], b[i + 2]) {
            case (0x28, _):  // ESC ( F: ASCII, JIS X 0201 Roman or Katakana
                twoByte = false
                jisX0208 = false
            case (0x24, 0x40), (0x24, 0x42):  // ESC $ @, ESC $ B: JIS X 0208
                twoByte = true
                jisX0208 = true
            case (0x24, _):  // ESC $ A (GB 2312), ESC $ ( C (KS C 5601), ESC $ ( D (JIS X 0212)
                twoByte = true
                jisX0208 = false
            default:
                break  // ESC . F, ESC N: the G2 set, not the one text is read in
            }
            i += 3
        }
        scanned = max(scanned, end)
    }

    /// The character of JIS X 0208 code `j1 j2` (0x21...0x7E each) when it is in the NEC row 13 or the
    /// NEC-selected IBM rows 89 to 92, converted from its Shift_JIS bytes by CP932.
    private mutating func extensionRow(_ j1: UInt8, _ j2: UInt8) -> [UInt8]? {
        guard j1 == 0x2D || (0x79...0x7C).contains(j1), (0x21...0x7E).contains(j2) else { return nil }
        let s1 = (j1 + 1) / 2 + (j1 <= 0x5E ? 0x70 : 0xB0)
        let s2 = j1 & 1 == 1 ? j2 + (j2 >= 0x60 ? 0x20 : 0x1F) : j2 + 0x7E
        if cp932 == nil { cp932 = IconvPool.shared.take("CP932") }
        guard let cd = cp932 else { return nil }
        var input: [UInt8] = [s1, s2]
        var output = [UInt8](repeating: 0, count: 8)
        let converted = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf -> Int? in
                var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuf.baseAddress)?
                    .assumingMemoryBound(to: CChar.self)
                var inLeft = 2
                var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuf.baseAddress)?
                    .assumingMemoryBound(to: CChar.self)
                var outLeft = outBuf.count
                guard iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft) != -1, inLeft == 0 else { return nil }
                return outBuf.count - outLeft
            }
        }
        guard let count = converted, count > 0 else { return nil }
        return Array(output[0..<count])
    }
}
