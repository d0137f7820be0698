/// How many bytes a character a multibyte decoder rejected takes, so decoding goes on where the WHATWG Encoding
/// Standard's decoders (browsers, Thunderbird) go on: a lead byte and the bytes after it that could continue it are
/// one U+FFFD, and a byte that could not, ASCII above all, is read again as itself. glibc's iconv stops at the
/// rejected character's first byte without saying how long it is; going on one byte later made a rejected pair's
/// second byte (`A1`...`FE`) the lead of a character of its own, which took the next character with it (Big5
/// `81 A1 61` read `�｛`, the `a` lost).
///
/// The charsets are the ASCII-based multibyte ones mail declares: GB18030 (and GBK and GB2312 under it), Big5,
/// EUC-KR and CP949, Shift_JIS and CP932, EUC-JP, EUC-TW. A rejected sequence is at most 4 bytes.
enum MultibyteResync: Sendable {
    /// GB18030: two bytes, or four (lead, digit, lead, digit).
    case gb18030
    /// Big5, EUC-KR and the like: a lead `81`...`FE` and one byte.
    case twoByte
    /// CP949 (UHC) as glibc converts it: as ``twoByte``, and see ``rejectedBefore(_:at:from:)``.
    case uhc
    /// Shift_JIS and CP932: a lead `81`...`9F` or `E0`...`FC` and one byte.
    case shiftJIS
    /// EUC-JP: `8E` and a half-width katakana byte, `8F` and two bytes (JIS X 0212), or two bytes `A1`...`FE`.
    case eucJP
    /// EUC-TW: two bytes `A1`...`FE`, or `8E`, a plane byte `A1`...`B0` and two bytes.
    case eucTW

    /// The resynchronisation for an iconv charset name, or nil for a charset whose characters are one byte or
    /// one code unit (or are shifted in and out, as ISO-2022's: ``JISExtensionRows`` reads ISO-2022-JP's).
    init?(charset: String) {
        switch charset {
        case "GB18030", "GBK", "GB2312", "EUC-CN", "CP936": self = .gb18030
        case "BIG5-HKSCS", "BIG5", "BIG5HKSCS", "CP950", "EUC-KR", "JOHAB": self = .twoByte
        case "CP949", "UHC": self = .uhc
        case "CP932", "SHIFT_JIS", "SJIS", "SHIFT-JIS", "WINDOWS-31J", "SHIFT_JISX0213": self = .shiftJIS
        case "EUC-JP", "EUC-JP-MS", "EUC-JISX0213", "EUCJP": self = .eucJP
        case "EUC-TW": self = .eucTW
        default: return nil
        }
    }

    /// The bytes the character iconv rejected at `at` takes (1...4, at most what is left of `buffer`).
    func length(_ buffer: UnsafeBufferPointer<UInt8>, at: Int) -> Int {
        let n = buffer.count
        guard at < n else { return 0 }
        /// Byte `k` after the rejected one, when there is one.
        func byte(_ k: Int) -> UInt8? { at + k < n ? buffer[at + k] : nil }
        /// How many of the bytes from the second on are not ASCII, up to `most` (they are part of the character).
        func continued(_ most: Int) -> Int {
            var k = 1
            while k <= most, let b = byte(k), b >= 0x80 { k += 1 }
            return k
        }
        let lead = buffer[at]
        switch self {
        case .gb18030:
            guard (0x81...0xFE).contains(lead), let second = byte(1) else { return 1 }
            if (0x30...0x39).contains(second) {
                // Four bytes, or the lead alone (the digit and what follows read again).
                guard let third = byte(2), (0x81...0xFE).contains(third), let fourth = byte(3),
                      (0x30...0x39).contains(fourth) else { return 1 }
                return 4
            }
            return continued(1)
        case .twoByte, .uhc:
            return (0x81...0xFE).contains(lead) ? continued(1) : 1
        case .shiftJIS:
            return (0x81...0x9F).contains(lead) || (0xE0...0xFC).contains(lead) ? continued(1) : 1
        case .eucJP:
            if lead == 0x8F, let second = byte(1), (0xA1...0xFE).contains(second) { return continued(2) }
            return lead == 0x8E || lead == 0x8F || (0xA1...0xFE).contains(lead) ? continued(1) : 1
        case .eucTW:
            if lead == 0x8E, let plane = byte(1), (0xA1...0xB0).contains(plane) { return continued(3) }
            return lead == 0x8E || (0xA1...0xFE).contains(lead) ? continued(1) : 1
        }
    }

    /// Whether iconv, stopped with `EILSEQ` at `at`, had already passed the character it rejected: glibc's CP949
    /// (UHC) reports `A2 E8` (㉾ in KS X 1001:2002, not in CP949) rejected after its two bytes, not at them.
    /// `from`: where the conversion that stopped began (bytes before it were not read by it).
    func rejectedBefore(_ buffer: UnsafeBufferPointer<UInt8>, at: Int, from: Int) -> Bool {
        guard self == .uhc, at - 2 >= from, at <= buffer.count else { return false }
        return buffer[at - 2] == 0xA2 && buffer[at - 1] == 0xE8
    }
}
