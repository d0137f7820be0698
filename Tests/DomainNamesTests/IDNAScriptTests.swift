import DomainNames
import XCTest

/// The homograph rules as Chromium's IDN display policy has them: scripts mixed only as UTS 39's "highly restrictive"
/// level allows (rule 5), and no label of one script's Latin lookalikes only (rule 10), for Greek and Armenian as for
/// Cyrillic. The A-labels are Python's `punycode` codec's encodings of the words given.
final class IDNAScriptTests: XCTestCase {
    private func assertKept(_ label: String, _ word: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Punycode.decode(label.dropFirst(4)).map { String(String.UnicodeScalarView($0)) }, word, label,
                       file: file, line: line)
        XCTAssertNil(IDNA.unicodeLabel(label), label, file: file, line: line)
        XCTAssertEqual(IDNA.unicodeEmail("a@\(label).example"), "a@\(label).example", file: file, line: line)
    }

    private func assertShown(_ label: String, _ word: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(IDNA.unicodeLabel(label), word, label, file: file, line: line)
    }

    func testWholeScriptLookalikesOfGreekAndArmenianStayAsGiven() {
        assertKept("xn--0xaa", "οο")  // two omicrons: "oo"
        assertKept("xn--uxabocv", "τοκιο")  // "tokio"
        assertKept("xn--uxabki", "κινο")  // "kino"
        assertKept("xn--09aamt7ja", "գօօգլէ")  // Armenian "google" (գ reads as q or g, օ as o, լ as l, է as t)
        assertKept("xn--mbbky", "ոսօ")  // Armenian "uuo"
        assertKept("xn--o3ce", "ทน")  // Thai letters that read as "vu" in Linux fonts
        assertKept("xn--j1aal", "кок")  // Cyrillic к, added to Chromium's list since the Cyrillic rule came
        // Words of those scripts with a letter that reads as no Latin one are shown.
        assertShown("xn--hxargifdar", "ελληνικά")
        assertShown("xn--y9aaa1d0ai1cq", "հայաստան")
        assertShown("xn--vbbala", "ցօօց")  // ց is not on Chromium's list
        assertShown("xn--o3cw4h", "ไทย")
        assertShown("xn--5dbqzzl", "עברית")
        // Chromium's own exceptions: common Cyrillic words of lookalikes that spell no Latin word.
        assertShown("xn--80atb", "как")
    }

    func testScriptsMixOnlyAsBrowsersAllow() {
        assertKept("xn--pypal-d9d", "pαypal")  // Latin with Greek
        assertKept("xn--ggle-vifa", "gօօgle")  // Latin with Armenian
        assertKept("xn--4xa2tf5aim", "моσква")  // Cyrillic with Greek
        assertKept("xn--abc-yml3c0l", "abcไทย")  // Latin with Thai
        assertKept("xn--abc-uze8b7bxh", "abcعربي")  // Latin with Arabic
        assertKept("xn--v8j0cwa6g5527erc0b", "ひらがな한국")  // Japanese kana with Korean Hangul: two languages
        assertKept("xn--tda6360bnsf", "ü中国")  // a Latin letter beyond ASCII beside Han
        // Latin in ASCII with the scripts of one CJK language: Chinese, Japanese, Korean.
        assertShown("xn--hello-9n1hm04c", "hello中国")
        assertShown("xn--abc-wt4bf2985b", "abcㄅㄆ中")
        assertShown("xn--e-efusa1mzfr463ao4b", "e日本コマース")
        assertShown("xn--abc-ot8lk11n", "abc한국")
        assertShown("xn--fiqs8s", "中国")
    }
}
