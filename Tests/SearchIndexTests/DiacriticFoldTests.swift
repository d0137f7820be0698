import Projections
@testable import SearchIndex
import XCTest

/// Contact autocomplete removes diacritics with a table generated from SQLite (`Tools/gen-diacritic-table`); the
/// search index removes them with SQLite's FTS5 itself. The two must agree, or a name search finds would not complete.
final class DiacriticFoldTests: XCTestCase {
    /// Every scalar of the Basic Multilingual Plane between "a" and "b", tokenized as the index tokenizes: where FTS5
    /// makes "axb" with x ASCII, the fold gives x; where it makes "ab", the fold drops the scalar; anywhere else
    /// (a separator, a letter kept, a ligature expanded), the fold keeps the scalar as it is.
    func testTheFoldIsTheSearchIndexTokenizers() throws {
        let scalars = (0x80..<0x1_0000).compactMap(Unicode.Scalar.init(_:) as (UInt32) -> Unicode.Scalar?)
        let tokens = try PrefixWords().tokens(scalars.map { "a\($0)b" })
        XCTAssertEqual(tokens.count, scalars.count)
        var folded = 0, dropped = 0
        for (scalar, made) in zip(scalars, tokens) {
            let name = "U+" + String(scalar.value, radix: 16, uppercase: true)
            let u = made.count == 1 ? Array(made[0].unicodeScalars) : []
            if u.count == 3, u[0] == "a", u[2] == "b", u[1].isASCII {
                XCTAssertEqual(DiacriticFold.fold(scalar), u[1], name)
                folded += 1
            } else if made == ["ab"] {
                XCTAssertNil(DiacriticFold.fold(scalar), name)
                dropped += 1
            } else {
                XCTAssertEqual(DiacriticFold.fold(scalar), scalar, "\(name) -> \(made)")
            }
        }
        XCTAssertGreaterThan(folded, 400, "the Latin letters with diacritics")
        XCTAssertGreaterThan(dropped, 20, "the combining marks")
    }

    func testRemovingDiacriticsFromWords() {
        XCTAssertEqual(DiacriticFold.removingDiacritics("françois"), "francois")
        XCTAssertEqual(DiacriticFold.removingDiacritics("MÜLLER"), "MuLLER", "a capital folds as FTS5 folds it; ASCII case is the caller's")
        XCTAssertEqual(DiacriticFold.removingDiacritics("zoe\u{308}"), "zoe", "a decomposed mark is dropped")
        XCTAssertEqual(DiacriticFold.removingDiacritics("nguyễn"), "nguyen", "a letter with two marks")
        XCTAssertNil(DiacriticFold.removingDiacritics("francois"), "ASCII: nothing to remove")
        XCTAssertNil(DiacriticFold.removingDiacritics("łukasz"), "FTS5 keeps ł")
        XCTAssertNil(DiacriticFold.removingDiacritics("Ελένη"), "FTS5 removes only Latin diacritics")
        XCTAssertEqual(DiacriticFold.removingDiacritics("😀é"), "😀e", "past the plane: kept")
    }
}
