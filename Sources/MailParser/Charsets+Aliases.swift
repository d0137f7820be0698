extension Charsets {
    /// How a charset is decoded.
    enum Kind: Sendable, Equatable {
        case utf8
        case ascii
        case latin1
        case windows1252
        case unknown8bit
        case iconv(String)
    }

    /// Aliases keyed by the lowercased name with everything but letters and
    /// digits removed (so `ISO_8859-1`, `iso-8859-1` and `ISO8859_1` meet).
    private static let aliases: [String: Kind] = {
        var t: [String: Kind] = [:]
        for k in ["utf8", "unicode11utf8", "unicode20utf8", "utf8mb4", "utf8mb3"] { t[k] = .utf8 }
        for k in ["usascii", "ascii", "ansix341968", "ansix341986", "iso646us", "iso646irv1991", "us", "cp367",
                  "ibm367", "646", "isoir6", "csascii", "7bit", "8bit", "default", "none", "text", "plain"] {
            t[k] = .ascii
        }
        for k in ["unknown8bit", "unknown", "xunknown", "xuserdefined", "undefined", "binary"] { t[k] = .unknown8bit }
        for k in ["iso88591", "latin1", "l1", "cp819", "ibm819", "isoir100", "csisolatin1", "88591", "iso885911987"] {
            t[k] = .latin1
        }
        for k in ["windows1252", "cp1252", "win1252", "mscp1252", "ms1252", "xcp1252", "ansi1252"] { t[k] = .windows1252 }
        let latin: [(String, Int)] = [("latin2", 2), ("l2", 2), ("latin3", 3), ("l3", 3), ("latin4", 4), ("l4", 4),
                                      ("latin5", 9), ("l5", 9), ("latin6", 10), ("l6", 10), ("latin7", 13),
                                      ("l7", 13), ("latin8", 14), ("l8", 14), ("latin9", 15), ("l9", 15),
                                      ("latin0", 15), ("latin10", 16), ("l10", 16), ("cyrillic", 5),
                                      ("arabic", 6), ("greek", 7), ("greek8", 7), ("hebrew", 8), ("thai", 11),
                                      ("csisolatin2", 2), ("csisolatin5", 9), ("csisolatincyrillic", 5),
                                      ("csisolatingreek", 7), ("csisolatinhebrew", 8), ("csisolatinarabic", 6)]
        for (k, n) in latin { t[k] = .iconv("ISO-8859-\(n)") }
        for n in 1250...1258 where n != 1252 {
            for p in ["windows", "cp", "win", "mscp", "ms", "xcp", "ansi"] { t["\(p)\(n)"] = .iconv("CP\(n)") }
        }
        for k in ["koi8r", "koi8", "cskoi8r"] { t[k] = .iconv("KOI8-R") }
        t["koi8u"] = .iconv("KOI8-U")
        t["koi8ru"] = .iconv("KOI8-RU")
        for k in ["shiftjis", "sjis", "mskanji", "csshiftjis", "windows31j", "cp932", "ms932", "mscp932",
                  "shiftjis2004", "sjisopen", "sjiswin"] {
            t[k] = .iconv("CP932")
        }
        for k in ["eucjp", "cseucpkdfmtjapanese", "ujis"] { t[k] = .iconv("EUC-JP") }
        // eucJP-ms (EUC-JP with the NEC and IBM rows where Windows puts them: `AD xx`, the IBM ones as JIS X 0212's
        // `8F F3 xx` and `8F F4 xx`) is glibc's EUC-JP-MS; no WHATWG label, so browsers read it as something else.
        t["eucjpms"] = .iconv("EUC-JP-MS")
        for k in ["iso2022jp", "csiso2022jp", "iso2022jp2", "csiso2022jp2", "iso2022jp1", "cp50220", "cp50221",
                  "cp50222", "jis"] {
            t[k] = .iconv("ISO-2022-JP-2")
        }
        for k in ["gb2312", "gbk", "cp936", "ms936", "windows936", "euccn", "csgb2312", "chinese", "gb231280",
                  "isoir58", "csiso58gb231280", "gb18030", "gb180302000", "gb180302005", "csgbk", "936"] {
            t[k] = .iconv("GB18030")
        }
        for k in ["big5", "big5hkscs", "cnbig5", "xxbig5", "csbig5", "cp950", "ms950", "windows950", "big5tw"] {
            t[k] = .iconv("BIG5-HKSCS")
        }
        for k in ["euckr", "ksc56011987", "ksc5601", "ksc56011989", "ksc56011992", "korean", "csksc56011987",
                  "isoir149", "windows949", "cp949", "ms949", "uhc", "cseuckr", "ks_c_5601", "ksc"] {
            t[k] = .iconv("CP949")
        }
        t["iso2022kr"] = .iconv("ISO-2022-KR")
        t["csiso2022kr"] = .iconv("ISO-2022-KR")
        t["iso2022cn"] = .iconv("ISO-2022-CN")
        t["utf16"] = .iconv("UTF-16")
        t["utf16le"] = .iconv("UTF-16LE")
        t["utf16be"] = .iconv("UTF-16BE")
        t["ucs2"] = .iconv("UTF-16")
        t["unicode"] = .iconv("UTF-16")
        t["utf32"] = .iconv("UTF-32")
        t["utf32le"] = .iconv("UTF-32LE")
        t["utf32be"] = .iconv("UTF-32BE")
        t["utf7"] = .iconv("UTF-7")
        t["unicode11utf7"] = .iconv("UTF-7")
        for k in ["tis620", "windows874", "cp874", "iso885911", "tis6200", "tis62025291"] { t[k] = .iconv("CP874") }
        for k in ["macintosh", "macroman", "mac", "csmacintosh"] { t[k] = .iconv("MACINTOSH") }
        for k in ["maccyrillic", "maccyr"] { t[k] = .iconv("MAC-CYRILLIC") }
        for k in ["macce", "maccentraleurope", "maccentraleuropean", "maclatin2"] { t[k] = .iconv("MAC-CENTRALEUROPE") }
        for k in ["macukrainian", "macukraine", "macuk"] { t[k] = .iconv("MACUKRAINIAN") }
        for k in ["maciceland", "macicelandic", "macis"] { t[k] = .iconv("MAC-IS") }
        for k in ["euctw", "cseuctw"] { t[k] = .iconv("EUC-TW") }
        for k in ["ibm866", "cp866", "866", "csibm866"] { t[k] = .iconv("CP866") }
        for k in ["ibm850", "cp850", "850"] { t[k] = .iconv("CP850") }
        for k in ["ibm437", "cp437", "437"] { t[k] = .iconv("CP437") }
        t["viscii"] = .iconv("VISCII")
        return t
    }()

    /// Classifies a charset name or alias. A name in no alias table is given to iconv as it is (uppercased), or
    /// without an `x-` it begins with when iconv knows only that.
    static func kind(of name: String) -> Kind {
        // Fast path for the names almost all mail uses.
        switch name.utf8.count {
        case 5 where ASCII.equalsIgnoringCase(name, "utf-8"): return .utf8
        case 8 where ASCII.equalsIgnoringCase(name, "us-ascii"): return .ascii
        case 10 where ASCII.equalsIgnoringCase(name, "iso-8859-1"): return .latin1
        case 12 where ASCII.equalsIgnoringCase(name, "windows-1252"): return .windows1252
        default: break
        }
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(name.utf8.count)
        for b in name.utf8 {
            if b == ASCII.star { break }  // RFC 2231 language suffix: utf-8*en
            cleaned.append(ASCII.lower(b))
        }
        while let f = cleaned.first, ASCII.isWhitespace(f) || f == ASCII.quote || f == ASCII.apostrophe {
            cleaned.removeFirst()
        }
        while let l = cleaned.last, ASCII.isWhitespace(l) || l == ASCII.quote || l == ASCII.apostrophe {
            cleaned.removeLast()
        }
        if cleaned.isEmpty { return .ascii }
        if cleaned.count > 64 { cleaned.removeLast(cleaned.count - 64) }
        let key = String(decoding: cleaned.filter { ASCII.isAlpha($0) || ASCII.isDigit($0) }, as: UTF8.self)
        if let k = aliases[key] { return k }
        if key.hasPrefix("x"), let k = aliases[String(key.dropFirst())] { return k }
        if let n = iso8859Number(cleaned) {
            if n == 1 { return .latin1 }
            return .iconv("ISO-8859-\(n)")
        }
        // An `x-` name iconv knows without its `x-` (x-mac-cyrillic, x-euc-tw): the stripped name.
        if cleaned.count > 2, cleaned[0] == 0x78, cleaned[1] == ASCII.minus || cleaned[1] == ASCII.underscore {
            let stripped = uppercased(cleaned.dropFirst(2))
            if IconvPool.shared.knows(stripped) { return .iconv(stripped) }
        }
        return .iconv(uppercased(cleaned[...]))
    }

    /// ASCII letters of a cleaned name uppercased, as a String.
    private static func uppercased(_ name: ArraySlice<UInt8>) -> String {
        String(decoding: name.map { ($0 >= 0x61 && $0 <= 0x7A) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// The part number of an `iso-8859-N` style name, if it is one.
    private static func iso8859Number(_ s: [UInt8]) -> Int? {
        let pattern: [UInt8] = Array("8859".utf8)
        guard s.count >= pattern.count + 1 else { return nil }
        var start: Int?
        var i = 0
        while i + pattern.count <= s.count {
            if Array(s[i..<(i + pattern.count)]) == pattern { start = i + pattern.count; break }
            i += 1
        }
        guard var j = start else { return nil }
        if j < s.count, s[j] == ASCII.minus || s[j] == ASCII.underscore || s[j] == ASCII.space { j += 1 }
        var digits: [Int] = []
        while j < s.count, ASCII.isDigit(s[j]), digits.count < 2 {
            digits.append(Int(s[j] - ASCII.zero))
            j += 1
        }
        guard let first = digits.first else { return nil }
        var n = first
        if digits.count == 2 {
            let two = first * 10 + digits[1]
            if two <= 16 { n = two }
        }
        guard n >= 1 && n <= 16 && n != 12 else { return nil }
        return n
    }
}
