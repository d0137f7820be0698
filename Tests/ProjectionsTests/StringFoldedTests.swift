import Projections
import XCTest

/// `folded` is `lowercased()`, faster: the folds compare addresses by it, and a rebuild must fold them as a fold of
/// the same events before did.
final class StringFoldedTests: XCTestCase {
    /// Every Unicode scalar, alone and between ASCII capitals, folds to what `lowercased()` gives: the scalars whose
    /// mapping is several (`İ`), ASCII (the Kelvin sign), or outside the BMP (Deseret) included.
    func testEveryScalarFoldsAsLowercasedDoes() {
        var mismatches: [String] = []
        var chunk = ""
        func check(_ s: String) {
            if s.folded != s.lowercased() && mismatches.count < 10 { mismatches.append(s) }
        }
        for v in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            chunk.unicodeScalars.append(scalar)
            if v % 64 == 63 {
                check(chunk)
                chunk = ""
            }
            if v % 97 == 0 { check("A" + String(scalar) + "Z") }
        }
        check(chunk)
        XCTAssertEqual(mismatches.map { $0.unicodeScalars.map { String($0.value, radix: 16) } }, [])
    }

    /// Mixed strings (addresses with accents, Greek with a final sigma, Turkish capitals, combining marks, emoji):
    /// the same as `lowercased()`, byte for byte, and an ASCII string with no capital is returned as it is.
    func testMixedStringsFoldAsLowercasedDoes() {
        let pieces = ["A", "z", "@", ".", "Müller", "GARCÍA", "ΟΔΟΣ", "İSTANBUL", "ǅ", "ẞ", "\u{212A}elvin", "e\u{301}",
                      "Ω", "𐐀𐐨", "😀", "中文", "Ⓐ", "ﬀ", "\u{0}", "\u{7F}"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let s = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            XCTAssertEqual(Array(s.folded.utf8), Array(s.lowercased().utf8), s)
        }
        XCTAssertEqual("alice.smith@example.com".folded, "alice.smith@example.com")
        XCTAssertEqual("Jürgen.MÜLLER@Example.COM".folded, "jürgen.müller@example.com")
    }
}
