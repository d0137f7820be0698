import Foundation
import Projections
import XCTest

/// The form text is compared in (`IndexedText`): composed, Greek without its marks, ё as е; and the scalars it sends
/// to composition are every one that composition may change, by the Unicode data of the Swift and Foundation here.
final class IndexedTextTests: XCTestCase {
    func testFormComposesAndFolds() {
        XCTAssertEqual(scalars("Jose\u{301} Mu\u{308}ller"), scalars("José Müller"), "decomposed Latin composed")
        XCTAssertEqual(scalars("\u{1112}\u{116C}\u{110B}\u{1174}\u{1105}\u{1169}\u{11A8}.pdf"), scalars("회의록.pdf"), "Hangul jamo")
        XCTAssertEqual(scalars("\u{30AB}\u{3099}\u{30A4}\u{30C8}\u{3099}"), scalars("ガイド"), "kana with a voicing mark")
        XCTAssertEqual(scalars("Καλημέρα"), scalars("Καλημερα"), "tonos removed")
        XCTAssertEqual(scalars("Ελλα\u{301}δα"), scalars("Ελλαδα"), "decomposed tonos removed")
        XCTAssertEqual(scalars("ΣΊΣΥΦΟΣ σίσυφος"), scalars("ΣΙΣΥΦΟΣ σισυφοσ"), "final sigma as sigma")
        XCTAssertEqual(scalars("Ἀθῆναι ᾳ ΐ α\u{306}"), scalars("Αθηναι α ι α"), "polytonic, and a mark no letter composes with")
        XCTAssertEqual(scalars("Ёлка ёж мой їжак"), scalars("Елка еж мой їжак"), "ё as е, й and ї kept")
        XCTAssertEqual(scalars("Ё😀ё"), scalars("Е😀е"))
        for kept in ["plain ascii", "café Łódź straße", "会議の予定", "안녕하세요", "Привет, №5 〜", "😀👍🏽", ""] {
            XCTAssertEqual(scalars(kept), Array(kept.unicodeScalars), kept)
        }
    }

    /// Every scalar `mayCompose` leaves out is one composition never changes: combining class 0, the same after NFC
    /// alone, and no scalar's canonical decomposition has it past its first (it never joins the scalar before).
    func testEveryScalarCompositionMayChangeIsSentToIt() throws {
        var seconds = Set<UInt32>()
        var missed: [String] = []
        for v in UInt32(0x00C0)..<0x3_0000 {
            guard let s = Unicode.Scalar(v), s.properties.generalCategory != .unassigned else { continue }
            let decomposed = Array(String(s).decomposedStringWithCanonicalMapping.unicodeScalars)
            for d in decomposed.dropFirst() { seconds.insert(d.value) }
            guard v >= 0x0300, !IndexedText.mayCompose(v) else { continue }
            if s.properties.canonicalCombiningClass != .notReordered
                || Array(String(s).precomposedStringWithCanonicalMapping.unicodeScalars) != [s] {
                missed.append(String(v, radix: 16))
            }
        }
        missed += seconds.filter { $0 >= 0x0300 && !IndexedText.mayCompose($0) }.sorted().map { String($0, radix: 16) }
        XCTAssertEqual(missed, [], "scalars composition may change that IndexedText takes for composed")
        XCTAssertFalse(IndexedText.mayCompose(0x3042), "hiragana a")
        XCTAssertFalse(IndexedText.mayCompose(0xAC00), "a Hangul syllable")
        XCTAssertFalse(IndexedText.mayCompose(0x1F600), "an emoji")
        XCTAssertTrue(IndexedText.mayCompose(0x0301))
    }

    private func scalars(_ s: String) -> [Unicode.Scalar] { Array(IndexedText.form(s).unicodeScalars) }
}
