import DomainNames
import XCTest

/// Punycode (RFC 3492) against the sample strings of its section 7.1, both ways, and its bounds.
final class PunycodeTests: XCTestCase {
    private func encode(_ scalars: [UInt32]) -> String? {
        Punycode.encode(scalars.compactMap(Unicode.Scalar.init))
    }

    func testTheRFC3492SampleStrings() {
        // (A) Arabic (Egyptian)
        XCTAssertEqual(encode([0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A, 0x0643, 0x0644, 0x0645, 0x0648, 0x0634,
                               0x0639, 0x0631, 0x0628, 0x064A, 0x061F]), "egbpdaj6bu4bxfgehfvwxn")
        // (B) Chinese (simplified)
        XCTAssertEqual(encode([0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587]), "ihqwcrb4cv8a8dqg056pqjye")
        // (D) Czech: Pro<ccaron>prost<ecaron>nemluv<iacute><ccaron>esky (case kept on the basic code points)
        XCTAssertEqual(encode([0x0050, 0x0072, 0x006F, 0x010D, 0x0070, 0x0072, 0x006F, 0x0073, 0x0074, 0x011B, 0x006E, 0x0065, 0x006D,
                               0x006C, 0x0075, 0x0076, 0x00ED, 0x010D, 0x0065, 0x0073, 0x006B, 0x0079]), "Proprostnemluvesky-uyb24dma41a")
        // (L) 3<nen>B<gumi><kinpachi><sensei>
        XCTAssertEqual(encode([0x0033, 0x5E74, 0x0042, 0x7D44, 0x91D1, 0x516B, 0x5148, 0x751F]), "3B-ww4c5e180e575a65lsy2b")
        // (S) -> $1.00 <-: basic code points only, the delimiter still written
        XCTAssertEqual(encode([0x002D, 0x003E, 0x0020, 0x0024, 0x0031, 0x002E, 0x0030, 0x0030, 0x0020, 0x003C, 0x002D]), "-> $1.00 <--")
        // The IDNA examples: bücher, ü alone, katakana.
        XCTAssertEqual(Punycode.encode(Array("bücher".unicodeScalars)), "bcher-kva")
        XCTAssertEqual(Punycode.encode(Array("ü".unicodeScalars)), "tda")
        XCTAssertEqual(Punycode.encode(Array("ハローキティ".unicodeScalars)), "dckta9e8a4kpd")
    }

    func testAnInputLongerThanALabelIsRefused() {
        XCTAssertNotNil(Punycode.encode(Array(String(repeating: "ü", count: Punycode.maxInputScalars).unicodeScalars)))
        XCTAssertNil(Punycode.encode(Array(String(repeating: "ü", count: Punycode.maxInputScalars + 1).unicodeScalars)))
    }

    func testTheRFC3492SampleStringsDecode() {
        let samples: [[UInt32]] = [
            [0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A, 0x0643, 0x0644, 0x0645, 0x0648, 0x0634, 0x0639, 0x0631, 0x0628,
             0x064A, 0x061F],
            [0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587],
            [0x0050, 0x0072, 0x006F, 0x010D, 0x0070, 0x0072, 0x006F, 0x0073, 0x0074, 0x011B, 0x006E, 0x0065, 0x006D, 0x006C, 0x0075,
             0x0076, 0x00ED, 0x010D, 0x0065, 0x0073, 0x006B, 0x0079],
            [0x0033, 0x5E74, 0x0042, 0x7D44, 0x91D1, 0x516B, 0x5148, 0x751F],
            [0x002D, 0x003E, 0x0020, 0x0024, 0x0031, 0x002E, 0x0030, 0x0030, 0x0020, 0x003C, 0x002D],
        ]
        for sample in samples {
            let scalars = sample.compactMap(Unicode.Scalar.init)
            let code = encode(sample) ?? ""
            XCTAssertEqual(Punycode.decode(code), scalars, code)
            // Digits are read in either case (section 5).
            XCTAssertEqual(Punycode.decode(code.uppercased()).map { String(String.UnicodeScalarView($0)).lowercased() },
                           String(String.UnicodeScalarView(scalars)).lowercased(), code)
        }
    }

    /// What is not Punycode is refused, not guessed at: a digit that is none, a number cut off, a code point past
    /// U+10FFFF or a surrogate, a number past `Int` (checked, not wrapped), an input past `maxInputBytes`.
    func testWhatIsNotPunycodeIsRefused() {
        XCTAssertNil(Punycode.decode("bcher_kva"))
        XCTAssertNil(Punycode.decode("bcher-kv"))
        XCTAssertNil(Punycode.decode("0000h"))
        XCTAssertNil(Punycode.decode("99999999999999999999a"))
        XCTAssertNil(Punycode.decode(String(repeating: "9", count: 58) + "a"))
        XCTAssertNil(Punycode.decode("b\u{FC}cher-kva"))
        XCTAssertNil(Punycode.decode("ib9b"), "U+D800, a surrogate")
        XCTAssertEqual(Punycode.decode(""), [])
        XCTAssertEqual(Punycode.decode("abc-"), Array("abc".unicodeScalars))
        XCTAssertEqual(Punycode.decode(String(repeating: "a", count: Punycode.maxInputBytes - 1) + "-"),
                       Array(String(repeating: "a", count: Punycode.maxInputBytes - 1).unicodeScalars))
        XCTAssertNil(Punycode.decode(String(repeating: "a", count: Punycode.maxInputBytes) + "-"))
    }
}
