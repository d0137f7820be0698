import XCTest
import Foundation
@testable import MailParser
import TestSupport

final class CharsetsTests: XCTestCase {
    func testEveryCharsetFamily() {
        let cases: [(String, String, [UInt8])] = [
            ("iso-8859-1", "Café déjà vu", [67, 97, 102, 233, 32, 100, 233, 106, 224, 32, 118, 117]),
            ("iso-8859-2", "Zażółć gęślą", [90, 97, 191, 243, 179, 230, 32, 103, 234, 182, 108, 177]),
            ("iso-8859-5", "Привет", [191, 224, 216, 210, 213, 226]),
            ("iso-8859-7", "Καλημέρα", [202, 225, 235, 231, 236, 221, 241, 225]),
            ("iso-8859-8", "שלום", [249, 236, 229, 237]),
            ("iso-8859-9", "Günaydın", [71, 252, 110, 97, 121, 100, 253, 110]),
            ("iso-8859-15", "Prix: 5€", [80, 114, 105, 120, 58, 32, 53, 164]),
            ("iso-8859-16", "Țară", [222, 97, 114, 227]),
            ("windows-1250", "Dobrý den", [68, 111, 98, 114, 253, 32, 100, 101, 110]),
            ("windows-1251", "Привет мир", [207, 240, 232, 226, 229, 242, 32, 236, 232, 240]),
            ("windows-1252", "“quotes” – €", [147, 113, 117, 111, 116, 101, 115, 148, 32, 150, 32, 128]),
            ("windows-1253", "Γειά", [195, 229, 233, 220]),
            ("windows-1254", "Teşekkür", [84, 101, 254, 101, 107, 107, 252, 114]),
            ("windows-1255", "שלום", [249, 236, 229, 237]),
            ("windows-1256", "مرحبا", [227, 209, 205, 200, 199]),
            ("windows-1257", "Ačiū", [65, 232, 105, 251]),
            ("windows-1258", "Xin chào", [88, 105, 110, 32, 99, 104, 224, 111]),
            ("koi8-r", "Привет", [240, 210, 201, 215, 197, 212]),
            ("koi8-u", "Привіт", [240, 210, 201, 215, 166, 212]),
            ("shift_jis", "日本語テキスト", [147, 250, 150, 123, 140, 234, 131, 101, 131, 76, 131, 88, 131, 103]),
            ("euc-jp", "日本語テキスト", [198, 252, 203, 220, 184, 236, 165, 198, 165, 173, 165, 185, 165, 200]),
            ("iso-2022-jp", "日本語テキスト", [27, 36, 66, 70, 124, 75, 92, 56, 108, 37, 70, 37, 45, 37, 57, 37, 72, 27, 40, 66]),
            ("gb2312", "中文测试", [214, 208, 206, 196, 178, 226, 202, 212]),
            ("gbk", "中文测试", [214, 208, 206, 196, 178, 226, 202, 212]),
            ("gb18030", "中文测试", [214, 208, 206, 196, 178, 226, 202, 212]),
            ("big5", "中文測試", [164, 164, 164, 229, 180, 250, 184, 213]),
            ("euc-kr", "한국어", [199, 209, 177, 185, 190, 238]),
            ("utf-16", "Hello ☃", [255, 254, 72, 0, 101, 0, 108, 0, 108, 0, 111, 0, 32, 0, 3, 38]),
            ("utf-16le", "Hi ☃", [72, 0, 105, 0, 32, 0, 3, 38]),
            ("utf-16be", "Hi ☃", [0, 72, 0, 105, 0, 32, 38, 3]),
        ]
        assertDecodesCleanly(cases)
    }

    /// Each (charset, text, bytes): the bytes decode to the text without a warning.
    private func assertDecodesCleanly(_ cases: [(String, String, [UInt8])], file: StaticString = #filePath, line: UInt = #line) {
        for (charset, expected, raw) in cases {
            let (text, warning) = Charsets.decode(raw, charset: charset)
            XCTAssertEqual(text, expected, charset, file: file, line: line)
            XCTAssertNil(warning, charset, file: file, line: line)
        }
    }

    func testAliasesAreNormalised() {
        XCTAssertEqual(Charsets.normalizedName("latin1"), "ISO-8859-1")
        XCTAssertEqual(Charsets.normalizedName("ISO_8859-1:1987"), "ISO-8859-1")
        XCTAssertEqual(Charsets.normalizedName("iso8859-15"), "ISO-8859-15")
        XCTAssertEqual(Charsets.normalizedName("cp1252"), "WINDOWS-1252")
        XCTAssertEqual(Charsets.normalizedName("x-sjis"), "CP932")
        XCTAssertEqual(Charsets.normalizedName("ks_c_5601-1987"), "CP949")
        XCTAssertEqual(Charsets.normalizedName("\"UTF8\""), "UTF-8")
        XCTAssertEqual(Charsets.normalizedName("gbk"), "GB18030")
        XCTAssertEqual(Charsets.normalizedName("win-1251"), "CP1251")
        XCTAssertEqual(Charsets.normalizedName("ansi_x3.4-1968"), "US-ASCII")
        XCTAssertEqual(Charsets.normalizedName("latin2"), "ISO-8859-2")
        XCTAssertEqual(Charsets.normalizedName("x-mac-whatever"), "X-MAC-WHATEVER")
    }

    func testAliasDecodes() {
        XCTAssertEqual(Charsets.decode([0xE9], charset: "latin1").0, "é")
        XCTAssertEqual(Charsets.decode([0x80], charset: "cp1252").0, "€")
        XCTAssertEqual(Charsets.decode([0x93, 0xFA], charset: "x-sjis").0, "日")
        XCTAssertEqual(Charsets.decode([0xC7, 0xD1], charset: "ks_c_5601-1987").0, "한")
    }

    /// Names glibc converts under another name were taken for unknown charsets (U+FFFD and unknownCharset).
    func testMacEUCTWAndMS949NamesDecode() {
        let cases: [(String, String, [UInt8])] = [
            ("x-mac-cyrillic", "Привет", [0x8F, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]),
            ("x-mac-ce", "Zażółć", [0x5A, 0x61, 0xFD, 0x97, 0xB8, 0x8D]),
            ("x-mac-ukrainian", "Привіт ґ", [0x8F, 0xF0, 0xE8, 0xE2, 0xB4, 0xF2, 0x20, 0xB6]),
            ("x-euc-tw", "中文", [0xC4, 0xE3, 0xC5, 0xC6]),
            ("ms949", "한국", [0xC7, 0xD1, 0xB1, 0xB9]),
            ("x-mac-icelandic", "Þór", [0xDE, 0x97, 0x72]),
            ("X_EUC-TW", "中文", [0xC4, 0xE3, 0xC5, 0xC6]),
        ]
        assertDecodesCleanly(cases)
        XCTAssertEqual(Charsets.normalizedName("x-mac-cyrillic"), "MAC-CYRILLIC")
        XCTAssertEqual(Charsets.normalizedName("x-euc-tw"), "EUC-TW")
        XCTAssertEqual(Charsets.normalizedName("x-ibm866"), "CP866")
        XCTAssertEqual(Charsets.normalizedName("x-no-such-set"), "X-NO-SUCH-SET")
        XCTAssertEqual(EncodedWords.decode("=?x-mac-cyrillic?B?j/Do4uXy?="), "Привет")
        XCTAssertEqual(EncodedWords.decode("=?ms949?B?x9GxuQ==?="), "한국")
    }

    /// The NEC row 13 and the NEC-selected IBM rows 89 to 92 Windows and Outlook write in ISO-2022-JP and
    /// EUC-JP (read by browsers and Thunderbird): glibc rejects them and each became U+FFFD and a misread
    /// neighbour (`�´↓�`, `�盒�`).
    func testJapaneseNECAndIBMRowsDecode() {
        let esc2208: [UInt8] = [0x1B, 0x24, 0x42], escASCII: [UInt8] = [0x1B, 0x28, 0x42]
        let cases: [(String, String, [UInt8])] = [
            ("iso-2022-jp", "①②㈱", esc2208 + [0x2D, 0x21, 0x2D, 0x22, 0x2D, 0x6A] + escASCII),
            ("ISO-2022-JP", "髙橋", esc2208 + [0x7C, 0x62, 0x36, 0x36] + escASCII),
            ("iso-2022-jp", "①abc髙ⅰ￢", esc2208 + [0x2D, 0x21] + escASCII + Array("abc".utf8)
                + [0x1B, 0x24, 0x40, 0x7C, 0x62, 0x7C, 0x71, 0x7C, 0x7B] + escASCII),
            ("euc-jp", "①㈱", [0xAD, 0xA1, 0xAD, 0xEA]),
            ("euc-jp", "髙橋 ok", [0xFC, 0xE2, 0xB6, 0xB6, 0x20, 0x6F, 0x6B]),
        ]
        assertDecodesCleanly(cases)
        XCTAssertEqual(EncodedWords.decode("=?ISO-2022-JP?B?GyRCLSEtIi1qGyhC?="), "①②㈱")
        XCTAssertEqual(EncodedWords.decode("=?ISO-2022-JP?B?GyRCfGI2NhsoQg==?= <t@example.jp>"), "髙橋 <t@example.jp>")
        // Plain JIS as glibc reads it (the wave dash stays U+301C, not CP932's U+FF5E).
        XCTAssertEqual(Charsets.decode(esc2208 + [0x21, 0x41, 0x21, 0x5D, 0x46, 0x7C] + escASCII, charset: "iso-2022-jp").0,
                       "\u{301C}\u{2212}日")
        XCTAssertEqual(Charsets.decode([0xA1, 0xC1, 0xA1, 0xDD], charset: "euc-jp").0, "\u{301C}\u{2212}")
        // A character in no row is one U+FFFD, and the next is read whole.
        let (iso, isoWarning) = Charsets.decode(esc2208 + [0x29, 0x21, 0x46, 0x7C] + escASCII + [0x61], charset: "iso-2022-jp")
        XCTAssertEqual(iso, "\u{FFFD}日a")
        XCTAssertEqual(isoWarning?.code, .invalidCharsetBytes)
        let (euc, eucWarning) = Charsets.decode([0xA9, 0xA1, 0xC6, 0xFC, 0x61], charset: "euc-jp")
        XCTAssertEqual(euc, "\u{FFFD}日a")
        XCTAssertEqual(eucWarning?.code, .invalidCharsetBytes)
    }

    /// A two-byte character a multibyte decoder rejects is one U+FFFD and is resynchronised as the WHATWG Encoding
    /// Standard's decoders do: a second byte that is ASCII is read again as itself, one that is not is part of the
    /// rejected character. Before, decoding went on one byte later, so a non-ASCII second byte began a character of
    /// its own and took the next one with it (`�｛b` for Big5 `81 A1 61 62`), and glibc's CP949, which reports
    /// `A2 E8` rejected after its two bytes, lost the byte after it (`�b`, `��` for `A2 E8 C7 D1`).
    func testARejectedMultibyteCharacterIsResynchronisedAsWHATWGDoes() {
        let cases: [(String, [UInt8], String)] = [
            ("big5", [0x81, 0xA1, 0x61, 0x62], "\u{FFFD}ab"),
            ("big5", [0x81, 0x41, 0xA4, 0xA4], "\u{FFFD}A中"),
            ("big5", [0x81, 0xA1, 0xA4, 0xA4, 0x61], "\u{FFFD}中a"),
            ("euc-kr", [0xC9, 0xA1, 0x61, 0x62], "\u{FFFD}ab"),
            ("euc-kr", [0xA2, 0xE8, 0x61, 0x62], "\u{FFFD}ab"),
            ("ks_c_5601-1987", [0xA2, 0xE8, 0xC7, 0xD1, 0x20, 0xB0, 0xA1], "\u{FFFD}한 가"),
            ("euc-kr", [0xC7, 0x20, 0xC7, 0xD1], "\u{FFFD} 한"),
            ("gb2312", [0x81, 0xFF, 0x61], "\u{FFFD}a"),
            ("gb18030", [0x81, 0x20, 0xD6, 0xD0], "\u{FFFD} 中"),
            ("gb18030", [0x84, 0x31, 0xA5, 0x30, 0x61, 0xD6, 0xD0], "\u{FFFD}a中"),
            ("gb18030", [0x81, 0x30, 0x61, 0x62], "\u{FFFD}0ab"),
            ("shift_jis", [0x81, 0xAD, 0x61], "\u{FFFD}a"),
            ("shift_jis", [0x82, 0x40, 0x61, 0x93, 0xFA], "\u{FFFD}@a日"),
            ("euc-jp", [0x8E, 0xE0, 0x61], "\u{FFFD}a"),
            ("euc-jp", [0x8E, 0xE0, 0xA4, 0xA2], "\u{FFFD}あ"),
            ("euc-jp", [0x8F, 0xA1, 0xA1, 0xA4, 0xA2], "\u{FFFD}あ"),
            ("euc-jp", [0x8F, 0xA1, 0x41, 0xA4, 0xA2], "\u{FFFD}Aあ"),
            ("euc-jp", [0xC6, 0x20, 0xC6, 0xFC], "\u{FFFD} 日"),
        ]
        for (charset, raw, expected) in cases {
            let (text, warning) = Charsets.decode(raw, charset: charset)
            XCTAssertEqual(text, expected, "\(charset) \(raw.map { String($0, radix: 16) })")
            XCTAssertEqual(warning?.code, .invalidCharsetBytes, charset)
        }
    }

    /// EUC-JP's three-byte JIS X 0212 codes (`8F` and two bytes `A1`...`FE`) decode (glibc's EUC-JP has the set),
    /// beside the NEC and IBM rows of JIS X 0208 read through CP932.
    func testEUCJPJISX0212CodesDecode() {
        let cases: [(String, String, [UInt8])] = [
            ("euc-jp", "丂 x", [0x8F, 0xB0, 0xA1, 0x20, 0x78]),
            ("euc-jp", "丂①髙", [0x8F, 0xB0, 0xA1, 0xAD, 0xA1, 0xFC, 0xE2]),
            ("x-euc-jp", "˘", [0x8F, 0xA2, 0xAF]),
        ]
        assertDecodesCleanly(cases)
        XCTAssertEqual(EncodedWords.decode("=?EUC-JP?B?j7Ch?="), "丂")
    }

    /// A byte that begins no character is read as the WHATWG Encoding Standard's decoders read it: glibc read Big5's
    /// `80` and EUC-JP's `80`...`8D`, `90`...`9F` as C1 controls (WHATWG: U+FFFD) and rejected GB18030's `80`
    /// (WHATWG: €, as Windows' code page 936) and Shift_JIS's (WHATWG: U+0080). EUC-JP reads again any byte after a
    /// lead that is not `A1`...`FE` (WHATWG's decoder does so), not only an ASCII one. Each case is the WHATWG result.
    func testALoneByteIsReadAsWHATWGReadsIt() {
        let cases: [(String, [UInt8], String, Bool)] = [
            ("big5", [0x61, 0x80, 0x62], "a\u{FFFD}b", true),
            ("big5-hkscs", [0xA4, 0xA4, 0x80, 0xA4, 0xA4], "中\u{FFFD}中", true),
            ("cp950", [0x80, 0x80], "\u{FFFD}\u{FFFD}", true),
            ("big5", [0xA4, 0x80, 0x61], "\u{FFFD}a", true),
            ("big5", [0xFF, 0x61, 0xA4, 0xA4], "\u{FFFD}a中", true),
            ("euc-kr", [0x61, 0x80, 0x62, 0xFF], "a\u{FFFD}b\u{FFFD}", true),
            ("euc-jp", [0x61, 0x80, 0x62], "a\u{FFFD}b", true),
            ("euc-jp", [0x85, 0x9F, 0x61], "\u{FFFD}\u{FFFD}a", true),
            ("euc-jp", [0xA4, 0x85, 0xA4, 0xA2], "\u{FFFD}\u{FFFD}あ", true),
            ("euc-jp", [0x8E, 0x80, 0x61], "\u{FFFD}\u{FFFD}a", true),
            ("euc-jp", [0x8F, 0xA1, 0x90, 0x61], "\u{FFFD}\u{FFFD}a", true),
            ("euc-jp", [0xA0, 0xFF, 0x8E, 0xA1], "\u{FFFD}\u{FFFD}｡", true),
            ("gb18030", [0x61, 0x80, 0x62], "a€b", false),
            ("gbk", [0x80, 0xD6, 0xD0, 0x80], "€中€", false),
            ("gb2312", [0x80], "€", false),
            ("gb18030", [0x81, 0x30, 0x80], "\u{FFFD}0€", true),
            ("gb18030", [0x81, 0x30, 0x61], "\u{FFFD}0a", true),
            ("gb18030", [0x61, 0x81, 0x30], "a\u{FFFD}", true),
            ("gb18030", [0x61, 0x81, 0x30, 0x81], "a\u{FFFD}", true),
            ("gb18030", [0xFF, 0x80], "\u{FFFD}€", true),
            ("shift_jis", [0x61, 0x80, 0x62], "a\u{80}b", false),
            ("shift_jis", [0xA0, 0xFD, 0xFF, 0x61], "\u{FFFD}\u{FFFD}\u{FFFD}a", true),
        ]
        for (charset, raw, expected, warns) in cases {
            let (text, warning) = Charsets.decode(raw, charset: charset)
            let label = "\(charset) \(raw.map { String($0, radix: 16) })"
            XCTAssertEqual(text, expected, label)
            XCTAssertEqual(warning?.code, warns ? .invalidCharsetBytes : nil, label)
        }
        // A window's cut (prefix) leaves out a lead at the end, not one before a byte iconv is stopped at.
        let cut: [UInt8] = [0xA4, 0x80, 0x61, 0xA4]
        let (text, _) = cut.withUnsafeBufferPointer { Charsets.decode(buffer: $0, charset: "big5", prefix: true) }
        XCTAssertEqual(text, "\u{FFFD}a")
    }

    /// Text declared eucJP-ms is read by glibc's EUC-JP-MS: its IBM rows (`8F F3 xx`, `8F F4 xx`) and NEC row 13
    /// decode. Declared EUC-JP, `8F F3 F3` is no JIS X 0212 character, one U+FFFD, as WHATWG's EUC-JP reads it.
    func testEUCJPMSIBMRowsDecode() {
        assertDecodesCleanly([
            ("eucJP-ms", "ⅰⅢ黑", [0x8F, 0xF3, 0xF3, 0x8F, 0xF4, 0xA1, 0x8F, 0xF4, 0xFE]),
            ("euc-jp-ms", "①日", [0xAD, 0xA1, 0xC6, 0xFC]),
            ("x-eucjp-ms", "ⅱ", [0x8F, 0xF3, 0xF4]),
        ])
        XCTAssertEqual(Charsets.normalizedName("eucJP-ms"), "EUC-JP-MS")
        let (text, warning) = Charsets.decode([0x8F, 0xF3, 0xF3, 0x61], charset: "euc-jp")
        XCTAssertEqual(text, "\u{FFFD}a")
        XCTAssertEqual(warning?.code, .invalidCharsetBytes)
        XCTAssertEqual(Charsets.decode([0x61, 0x80], charset: "eucJP-ms").0, "a\u{FFFD}")
    }

    /// The same bytes in a message body, through the MIME parser.
    func testWHATWGLoneBytesAndEUCJPMSInAMessageBody() {
        func body(_ charset: String, _ bytes: [UInt8]) -> String? {
            let head = "Content-Type: text/plain; charset=\(charset)\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            return MailParser.parse(Array(head.utf8) + bytes).textBody
        }
        XCTAssertEqual(body("gb18030", [0x31, 0x30, 0x80, 0x20, 0xD6, 0xD0]), "10€ 中")
        XCTAssertEqual(body("big5", [0x61, 0x80, 0x62]), "a\u{FFFD}b")
        XCTAssertEqual(body("euc-jp", [0x61, 0x85, 0x62]), "a\u{FFFD}b")
        XCTAssertEqual(body("eucJP-ms", [0x8F, 0xF3, 0xF3, 0x8F, 0xF4, 0xA1]), "ⅰⅢ")
    }

    func testUnknownCharsetReplacesAndWarns() {
        let (text, warning) = Charsets.decode([0x61, 0xFF, 0x62], charset: "no-such-charset")
        XCTAssertEqual(text, "a\u{FFFD}b")
        XCTAssertEqual(warning?.code, .unknownCharset)
    }

    func testInvalidBytesBecomeReplacementCharacters() {
        let (u, w1) = Charsets.decode([0x61, 0xC3, 0x28, 0x62], charset: "utf-8")
        XCTAssertEqual(u, "a\u{FFFD}(b")
        XCTAssertEqual(w1?.code, .invalidCharsetBytes)
        let (sj, w2) = Charsets.decode([0x61, 0x81], charset: "shift_jis")  // truncated double byte
        XCTAssertEqual(sj, "a\u{FFFD}")
        XCTAssertEqual(w2?.code, .invalidCharsetBytes)
        let (kr, _) = Charsets.decode([0xC7, 0xD1, 0xFF, 0xFF, 0xC7, 0xD1], charset: "euc-kr")
        XCTAssertTrue(kr.hasPrefix("한"))
        XCTAssertTrue(kr.hasSuffix("한"))
        XCTAssertTrue(kr.contains("\u{FFFD}"))
    }

    /// After a sequence iconv rejects, decoding goes on a whole code unit later: one byte later read every
    /// later UTF-16 character from the middle of one (`Hello �␣圀漀爀氀搀…`).
    func testAnInvalidWideCodeUnitIsReplacedAloneAndTheRestReadAligned() {
        let rest = " World Grüße and more text"
        func utf16LE(_ s: String) -> [UInt8] {
            var out: [UInt8] = []
            for u in s.utf16 { out += [UInt8(u & 0xFF), UInt8(u >> 8)] }
            return out
        }
        let bom: [UInt8] = [0xFF, 0xFE], lone: [UInt8] = [0x00, 0xD8]
        let le16: [UInt8] = bom + utf16LE("Hello ") + lone + utf16LE(rest)
        let (t16, w16) = Charsets.decode(le16, charset: "utf-16")
        XCTAssertEqual(t16, "Hello \u{FFFD}" + rest)
        XCTAssertEqual(w16?.code, .invalidCharsetBytes)
        let be16: [UInt8] = [0x00, 0x41, 0xDC, 0x00, 0x00, 0x42, 0x00, 0xE9]
        XCTAssertEqual(Charsets.decode(be16, charset: "utf-16be").0, "A\u{FFFD}Bé")
        let le32: [UInt8] = [0x41, 0, 0, 0, 0x00, 0x00, 0x11, 0x00, 0x42, 0, 0, 0, 0xE9, 0, 0, 0]
        let (t32, w32) = Charsets.decode(le32, charset: "utf-32le")
        XCTAssertEqual(t32, "A\u{FFFD}Bé")
        XCTAssertEqual(w32?.code, .invalidCharsetBytes)
    }

    func testLyingUSASCIIUsesUTF8WhenValid() {
        let (t, w) = Charsets.decode(Array("Grüße".utf8), charset: "us-ascii")
        XCTAssertEqual(t, "Grüße")
        XCTAssertNil(w)
    }

    func testLyingUSASCIIFallsBackToWindows1252() {
        let (t, w) = Charsets.decode([0x93, 0x68, 0x69, 0x94, 0x20, 0xE9], charset: "us-ascii")
        XCTAssertEqual(t, "“hi” é")
        XCTAssertEqual(w?.code, .invalidCharsetBytes)
        XCTAssertEqual(Charsets.decode([0xE9], charset: nil).0, "é")
    }

    func testLyingCharsetInMessageBody() {
        var raw = Array("Content-Type: text/plain; charset=us-ascii\r\n\r\n".utf8)
        raw += Array("naïve café".utf8)
        XCTAssertEqual(MailParser.parse(raw).textBody, "naïve café")
        var raw2 = Array("Content-Type: text/plain; charset=us-ascii\r\n\r\n".utf8)
        raw2 += [0x63, 0x61, 0x66, 0xE9]
        XCTAssertEqual(MailParser.parse(raw2).textBody, "café")
    }

    func testEmptyInput() {
        XCTAssertEqual(Charsets.decode([UInt8](), charset: "koi8-r").0, "")
        XCTAssertEqual(Charsets.decode([UInt8](), charset: "utf-16").0, "")
    }

    func testNonContiguousCollection() {
        let bytes: [UInt8] = [0xF0, 0xD2, 0xC9]
        XCTAssertEqual(Charsets.decode(bytes.lazy.map { $0 }, charset: "koi8-r").0, "При")
    }
}

/// Conversion descriptors are kept for reuse (`IconvPool`): a conversion must start from the initial state
/// whatever the one before it left, and the pool stays within its bounds.
final class IconvPoolTests: XCTestCase {
    func testAConversionLeftShiftedDoesNotShiftTheNextOne() {
        // ESC $ B switches ISO-2022-JP to JIS X 0208; the text ends without switching back.
        let shifted: [UInt8] = [27, 36, 66, 70, 124, 75, 92]
        for _ in 0..<20 {
            let (a, _) = Charsets.decode(shifted, charset: "iso-2022-jp")
            XCTAssertEqual(a, "日本")
            let (b, warning) = Charsets.decode(Array("plain ~ text".utf8) + [27, 40, 66], charset: "iso-2022-jp")
            XCTAssertEqual(b, "plain ~ text", "read in the initial (ASCII) state")
            XCTAssertNil(warning)
        }
    }

    /// glibc reads a UTF-16 or UTF-32 byte order from the BOM of a descriptor's first conversion only: a kept
    /// descriptor read a little-endian message after a big-endian one byte-swapped (䰀椀琀琀氀攀).
    func testTheByteOrderOfOneBOMDoesNotCarryToTheNextConversion() {
        func utf16(_ s: String, bigEndian: Bool) -> [UInt8] {
            (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + s.utf16.flatMap { u -> [UInt8] in
                bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)]
            }
        }
        func utf32(_ s: String, bigEndian: Bool) -> [UInt8] {
            (bigEndian ? [0, 0, 0xFE, 0xFF] : [0xFF, 0xFE, 0, 0]) + s.unicodeScalars.flatMap { c -> [UInt8] in
                let v = c.value
                let le = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
                return bigEndian ? le.reversed() : le
            }
        }
        for round in 0..<3 {
            for (charset, encode) in [("utf-16", utf16), ("utf-32", utf32), ("UTF-16", utf16)] {
                for bigEndian in [true, false, false, true, true] {
                    let (text, warning) = Charsets.decode(encode("Little endian Grüße", bigEndian), charset: charset)
                    XCTAssertEqual(text, "Little endian Grüße", "\(charset) big-endian \(bigEndian), round \(round)")
                    XCTAssertNil(warning, "\(charset) big-endian \(bigEndian), round \(round)")
                }
            }
        }
    }

    func testThePoolKeepsAtMostItsBoundsAndConvertsFromManyThreads() {
        let pool = IconvPool()
        var taken: [iconv_t] = []
        for _ in 0..<10 {
            guard let cd = pool.take("ISO-2022-JP") else { return XCTFail("iconv knows ISO-2022-JP") }
            taken.append(cd)
        }
        XCTAssertNil(pool.take("NO-SUCH-CHARSET-\(UInt64.random(in: 0...UInt64.max))"))
        for cd in taken { pool.give(cd, charset: "ISO-2022-JP") }
        XCTAssertEqual(pool.idleCount, IconvPool.maxIdlePerCharset)
        for i in 0..<(IconvPool.maxCharsets + 10) {
            let name = i % 2 == 0 ? "CP\(850 + i)" : "ISO-8859-\(1 + i % 15)"
            if let cd = pool.take(name) { pool.give(cd, charset: name) }
        }
        XCTAssertLessThanOrEqual(pool.charsetCount, IconvPool.maxCharsets)

        let tally = Locked([Bool: Int]())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let (s, _) = Charsets.decode([27, 36, 66, 70, 124, 75, 92, 56, 108, 27, 40, 66], charset: "iso-2022-jp")
                tally.withLock { $0[s == "日本語", default: 0] += 1 }
            }
        }
        XCTAssertEqual(tally.withLock { $0 }, [true: 1_600])
    }
}
