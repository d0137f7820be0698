import Foundation

/// The one form text is brought to before the search index or the contacts view compares it: a document's text
/// columns before FTS5 tokenizes them, a search's words, a contact's name words and a prefix typed to complete one.
/// What is shown (a subject, a name, a result) stays as the mail had it; only what is compared takes this form.
///
/// - Canonical composition (NFC): the same text written decomposed, as macOS writes file names (`회의록.pdf` as
///   jamo, `ガイド` with U+3099, `José` as `e` + U+0301), or composed, is one text. FTS5 then folds a composed Latin
///   letter as it always did (`DiacriticFold`), and Hangul and kana are whole letters on both sides.
/// - Greek without its marks: a letter with tonos, dialytika or a polytonic mark becomes its base letter, and final
///   sigma becomes sigma (FTS5 folds ς to σ in the index; the contacts view so agrees with it): `καλημερα` and
///   `ΚΑΛΗΜΕΡΑ` find `Καλημέρα`, as `cafe` finds `Café` (FTS5's `remove_diacritics` removes Latin marks only).
/// - Cyrillic ё as е (Ё as Е), as Russian mostly writes it and its search engines fold it: `елка` finds `ёлка`.
///   No other Cyrillic letter changes: й, ї, ў are letters of their own.
///
/// Why composition rather than decomposition (after which FTS5 would drop every combining mark it knows): FTS5's
/// `unicode61` takes the kana voicing mark U+3099 for a separator (decomposed `ガイド` indexed as `カ` and `イト`), drops
/// the breve of `й` (`мой` would find `мои`), and the vocabulary (`terms`, words listed back) would hold Hangul as
/// jamo.
///
/// Cost: text whose every scalar is below U+0300 (ASCII, Latin-1, Latin Extended: nothing composition changes) is
/// one byte scan, returned as it is. Other text is one pass over its scalars: composed only when one of them is one
/// composition may change or join (`mayCompose`: combining marks, Hangul jamo, a few singletons; most mail has
/// none), copied only when one is composed or folded (Greek, ё).
package enum IndexedText {
    /// `text` in the indexed form (see the type); itself when nothing in it changes.
    package static func form(_ text: String) -> String {
        var scanned = text
        guard scanned.withUTF8({ hasScalarFromU0300($0) }) else { return text }
        let (composes, folds) = scanned.withUTF8 { utf8 in
            composingBMP.withUnsafeBufferPointer { bmp in greekFolds.withUnsafeBufferPointer { scan(utf8, bmp, $0) } }
        }
        guard composes || folds else { return text }
        guard composes else { return folded(text) ?? text }
        let composed = text.precomposedStringWithCanonicalMapping
        return folded(composed) ?? composed
    }

    /// Whether `utf8` has a byte of 0xCC or more (the lead byte of a scalar at or above U+0300): eight bytes at a time,
    /// each byte of a word looked at only when the word has one of 0x80 or more (ASCII text: one test per word).
    static func hasScalarFromU0300(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        let n = utf8.count
        var i = 0
        while i + 8 <= n {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                for k in i..<(i + 8) where utf8[k] >= 0xCC { return true }
            }
            i += 8
        }
        while i < n {
            if utf8[i] >= 0xCC { return true }
            i += 1
        }
        return false
    }

    /// Whether `utf8` has a scalar that composition may change (`mayCompose`; the scan stops there) and whether one
    /// that is folded. The tables are given (`composingBMP`, `greekFolds`), not read as statics in the loop (each read
    /// of one cost ~50 ns).
    static func scan(_ utf8: UnsafeBufferPointer<UInt8>, _ bmp: UnsafeBufferPointer<UInt64>,
                     _ greek: UnsafeBufferPointer<UInt32>) -> (composes: Bool, folds: Bool) {
        var composes = false
        var folds = false
        forEachScalarFromU0300(utf8) { _, v, _ in
            if mayCompose(v, bmp) {
                composes = true
                return false
            }
            if fold(v, greek) != 0 { folds = true }
            return true
        }
        return (composes, folds)
    }

    /// Calls `body` with the offset, value and length in bytes of each scalar of `utf8` at or above U+0300 (lead bytes
    /// 0xCC and above; valid UTF-8), but for U+4000-U+9FFF (CJK ideographs) and U+B000-U+DFFF (Hangul syllables), which
    /// neither compose nor fold, until it returns false.
    static func forEachScalarFromU0300(_ utf8: UnsafeBufferPointer<UInt8>, _ body: (Int, UInt32, Int) -> Bool) {
        var i = 0
        let n = utf8.count
        while i < n {
            let b = utf8[i]
            if b < 0xCC {
                i += 1
            } else if (0xE4...0xE9).contains(b) || (0xEB...0xED).contains(b) {
                i += 3
            } else {
                let (v, length) = decode(utf8, at: i)
                guard body(i, v, length) else { return }
                i += length
            }
        }
    }

    /// `text` with its scalars folded (`fold`) and the combining marks composition left after a Greek letter dropped;
    /// nil when none is.
    static func folded(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { utf8 in greekFolds.withUnsafeBufferPointer { folded(utf8, $0) } }
    }

    /// `folded(_:)` of the bytes `utf8`, with the table `greekFolds`.
    static func folded(_ utf8: UnsafeBufferPointer<UInt8>, _ greek: UnsafeBufferPointer<UInt32>) -> String? {
        var out: [UInt8] = []
        var copied = 0
        // Where the last Greek letter, with the marks dropped after it, ends.
        var greekEnd = -1
        forEachScalarFromU0300(utf8) { i, v, length in
            // A combining mark right after a Greek letter that composition left (no precomposed letter has both): dropped.
            let drop = i == greekEnd && (0x0300...0x036F).contains(v)
            let into = drop ? 0 : fold(v, greek)
            if drop || into != 0 {
                if out.isEmpty { out.reserveCapacity(utf8.count) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied..<i]))
                // Every fold is to a scalar of two bytes (Greek and Cyrillic letters, 0x0391-0x03C9, 0x0415, 0x0435).
                if into != 0 { out.append(contentsOf: [UInt8(0xC0 | into >> 6), UInt8(0x80 | into & 0x3F)]) }
                copied = i + length
            }
            if drop || isGreek(into != 0 ? into : v) { greekEnd = i + length }
            return true
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied..<utf8.count]))
        return String(decoding: out, as: UTF8.self)
    }

    /// What `v` becomes when it is folded (a Greek letter with marks, final sigma, ё, Ё), 0 when it stays; `greek`
    /// is `greekFolds`.
    static func fold(_ v: UInt32, _ greek: UnsafeBufferPointer<UInt32>) -> UInt32 {
        switch v {
        case 0x0370...0x03FF: return greek[Int(v - 0x0370)]
        case 0x1F00...0x1FFF: return greek[Int(v - 0x1F00) + 0x90]
        case 0x0401: return 0x0415
        case 0x0451: return 0x0435
        default: return 0
        }
    }

    /// Whether `v` is in the Greek and Coptic or Greek Extended block.
    static func isGreek(_ v: UInt32) -> Bool { (0x0370...0x03FF).contains(v) || (0x1F00...0x1FFF).contains(v) }

    /// The fold of each scalar of the Greek and Coptic block (0x0370-0x03FF, 144) then of Greek Extended (0x1F00-0x1FFF,
    /// 256): a letter with a canonical decomposition its base letter (the decomposition's first scalar, a Greek letter:
    /// 0x0386 `Ά` -> `Α`, 0x1FB3 `ᾳ` -> `α`), `ς` -> `σ`, else 0. Made once from Foundation's decompositions.
    static let greekFolds: [UInt32] = (Array(0x0370...0x03FF) + Array(0x1F00...0x1FFF)).map { v -> UInt32 in
        if v == 0x03C2 { return 0x03C3 }
        guard let scalar = Unicode.Scalar(UInt32(v)),
              let base = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars.first,
              base != scalar, (0x0391...0x03C9).contains(base.value), base.properties.isAlphabetic else { return 0 }
        return base.value
    }

    /// Whether composition may change `v` or join it to the scalar before: a superset of the scalars whose NFC quick
    /// check is not "yes" or whose canonical combining class is not 0 (combining marks, Hangul jamo, the singletons
    /// and exclusions). Text with none of them is composed already. `IndexedTextTests` checks the superset against the
    /// Unicode data of the Swift and Foundation the tests run with.
    package static func mayCompose(_ v: UInt32) -> Bool { composingBMP.withUnsafeBufferPointer { mayCompose(v, $0) } }

    /// `mayCompose(_:)` with the table `composingBMP`.
    static func mayCompose(_ v: UInt32, _ bmp: UnsafeBufferPointer<UInt64>) -> Bool {
        if v < 0x0300 { return false }
        if v <= 0xFFFF { return bmp[Int(v >> 6)] & (1 << UInt64(v & 63)) != 0 }
        // Above the BMP: the historic scripts' and musical symbols' marks (0x101FD-0x1E94A), the CJK compatibility
        // ideographs' supplement; not the emoji (0x1F000 on).
        return v < 0x1F000 || (0x2F800...0x2FA1F).contains(v)
    }

    /// The scalar whose UTF-8 starts at `i` of `utf8` (a lead byte of valid UTF-8), and its length in bytes.
    static func decode(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let b = UInt32(utf8[i])
        func c(_ k: Int) -> UInt32 { i + k < utf8.count ? UInt32(utf8[i + k] & 0x3F) : 0 }
        if b < 0x80 { return (b, 1) }
        if b < 0xE0 { return ((b & 0x1F) << 6 | c(1), 2) }
        if b < 0xF0 { return ((b & 0x0F) << 12 | c(1) << 6 | c(2), 3) }
        return ((b & 0x07) << 18 | c(1) << 12 | c(2) << 6 | c(3), 4)
    }

    /// The BMP's scalars that `mayCompose`, a bit each (1,024 words): made once from `composingRanges`.
    static let composingBMP: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: 1_024)
        for r in composingRanges {
            for v in r { bits[Int(v >> 6)] |= 1 << UInt64(v & 63) }
        }
        return bits
    }()

    /// The ranges of the BMP that `mayCompose`: every such scalar of Unicode 14 (Python's `unicodedata`: combining
    /// class not 0, changed by NFC alone, or not first in a canonical decomposition) with 16 scalars either side, but
    /// for Cyrillic, kana, letterlike symbols and CJK punctuation (exact there: `№`, `〜` and the kana are common);
    /// 0x1AA0-0x1AFF whole (the Swift here has marks up to 0x1AEB).
    static let composingRanges: [ClosedRange<UInt32>] = [
        0x0300...0x0387, 0x0483...0x0489, 0x0581...0x05D7, 0x0600...0x062A, 0x063B...0x0680, 0x06C6...0x06FD,
        0x0701...0x075A, 0x07DB...0x083D, 0x0849...0x086B, 0x0888...0x08AF, 0x08BA...0x090F, 0x092C...0x096F,
        0x09AC...0x0A0E, 0x0A23...0x0A6E, 0x0AAC...0x0ADD, 0x0B2C...0x0B6D, 0x0BAE...0x0BE7, 0x0C2C...0x0C66,
        0x0CAC...0x0CE6, 0x0D2B...0x0D67, 0x0DBA...0x0DEF, 0x0E28...0x0E5B, 0x0EA8...0x0EDB, 0x0F08...0x0FD6,
        0x101E...0x104A, 0x107D...0x109D, 0x1151...0x1185, 0x1198...0x11D2, 0x134D...0x136F, 0x1704...0x1744,
        0x17C2...0x17ED, 0x1899...0x18B9, 0x1929...0x194B, 0x1A07...0x1A28, 0x1A50...0x1A8F, 0x1AA0...0x1AFF,
        0x1B24...0x1B54, 0x1B5B...0x1B83, 0x1B9A...0x1BBB, 0x1BD6...0x1C03, 0x1C27...0x1C47, 0x1CC0...0x1D09,
        0x1DB0...0x1E0F, 0x1F61...0x1F8D, 0x1FAB...0x2011, 0x20D0...0x20FF, 0x2126...0x212B, 0x2329...0x232A,
        0x2ACC...0x2AEC, 0x2CDF...0x2D01, 0x2D6F...0x2D8F, 0x2DD0...0x2E0F, 0x302A...0x302F, 0x3099...0x309A,
        0xA65F...0xA6AF, 0xA6E0...0xA701, 0xA7F6...0xA816, 0xA81C...0xA83C, 0xA8B4...0xA901, 0xA91B...0xA93D,
        0xA943...0xA963, 0xA9A3...0xA9D0, 0xAAA0...0xAAD1, 0xAAE6...0xAB06, 0xABDD...0xABFD, 0xF8F0...0xFAE9,
        0xFB0D...0xFB5E, 0xFE20...0xFE2F,
    ]
}
