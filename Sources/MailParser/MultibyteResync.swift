/// How many bytes a character a multibyte decoder rejected takes, so decoding goes on where the WHATWG Encoding
/// Standard's decoders (browsers, Thunderbird) go on: a lead byte and the bytes after it that could continue it are
/// one U+FFFD, and a byte that could not, ASCII above all, is read again as itself. glibc's iconv stops at the
/// rejected character's first byte without saying how long it is; going on one byte later made a rejected pair's
/// second byte (`A1`...`FE`) the lead of a character of its own, which took the next character with it (Big5
/// `81 A1 61` read `�｛`, the `a` lost).
///
/// The charsets are the ASCII-based multibyte ones mail declares: GB18030 (and GBK and GB2312 under it), Big5,
/// EUC-KR and CP949, Shift_JIS and CP932, EUC-JP, EUC-TW. A rejected sequence is at most 4 bytes.
///
/// A byte that begins no character is read as WHATWG's decoders read it too, where glibc reads it otherwise:
/// Big5's `80` and EUC-JP's `80`...`8D` and `90`...`9F`, which glibc reads as C1 controls, are U+FFFD
/// (``stopsBefore(_:)``); GB18030's `80`, which glibc rejects, is U+20AC and Shift_JIS's is U+0080 (``lone(_:)``).
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
                // Four bytes, or the lead alone (the digit and what follows read again); cut short by the end of the
                // text, the bytes up to there (WHATWG's decoder reads none of them again at the end).
                guard let third = byte(2) else { return 2 }
                guard (0x81...0xFE).contains(third) else { return 1 }
                guard let fourth = byte(3) else { return 3 }
                return (0x30...0x39).contains(fourth) ? 4 : 1
            }
            return continued(1)
        case .twoByte, .uhc:
            return (0x81...0xFE).contains(lead) ? continued(1) : 1
        case .shiftJIS:
            return (0x81...0x9F).contains(lead) || (0xE0...0xFC).contains(lead) ? continued(1) : 1
        case .eucJP:
            // WHATWG's EUC-JP decoder reads again every byte after a lead that is not `A1`...`FE`, not only ASCII.
            guard lead == 0x8E || lead == 0x8F || (0xA1...0xFE).contains(lead) else { return 1 }
            var k = 1
            while k <= (lead == 0x8F ? 2 : 1), let b = byte(k), (0xA1...0xFE).contains(b) { k += 1 }
            return k
        case .eucTW:
            if lead == 0x8E, let plane = byte(1), (0xA1...0xB0).contains(plane) { return continued(3) }
            return lead == 0x8E || (0xA1...0xFE).contains(lead) ? continued(1) : 1
        }
    }

    /// Whether `byte` is one glibc reads as a character of its own (a C1 control) where WHATWG's decoder rejects it:
    /// Big5's `80` (its lead bytes are `81`...`FE`), EUC-JP's `80`...`8D` and `90`...`9F` (its leads are `8E`,
    /// `8F` and `A1`...`FE`). Such a byte is in no character glibc reads (no trail byte of these charsets is below
    /// `A1` but Big5's `40`...`7E`), so iconv is stopped before it and it is one U+FFFD.
    func stopsBefore(_ byte: UInt8) -> Bool {
        switch self {
        case .twoByte: return byte == 0x80
        case .eucJP: return (0x80...0x9F).contains(byte) && byte != 0x8E && byte != 0x8F
        case .gb18030, .uhc, .shiftJIS, .eucTW: return false
        }
    }

    /// The offset of the first byte from `from` on that ``stopsBefore(_:)``, or `buffer.count` when none does.
    func nextStop(_ buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        guard self == .twoByte || self == .eucJP else { return buffer.count }
        var i = from
        while i < buffer.count, !stopsBefore(buffer[i]) { i += 1 }
        return i
    }

    /// The character WHATWG's decoder reads `byte` as where it begins a character and glibc rejects it: GB18030's
    /// `80` is U+20AC (the euro sign of Windows' code page 936), Shift_JIS's `80` is U+0080. Nil for every other
    /// byte (a rejected one is U+FFFD, as in WHATWG's decoders).
    func lone(_ byte: UInt8) -> Unicode.Scalar? {
        guard byte == 0x80 else { return nil }
        switch self {
        case .gb18030: return "\u{20AC}"
        case .shiftJIS: return "\u{80}"
        case .twoByte, .uhc, .eucJP, .eucTW: return nil
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
