import DomainNames
import Foundation
import TestSupport
import XCTest

/// Zero-width joiners under IDNA 2008's contextual rules (RFC 5892 Appendix A.1, A.2): allowed right after a virama,
/// as Indic words write them, refused anywhere else; a ZWNJ in an Arabic-script joining context is refused here though
/// IDNA 2008 allows it (Swift has no Joining_Type). Checked against Python's `idna` package (IDNA 2008) where a Python
/// with it is on the PATH; the expectations below hold without it.
final class IDNAJoinerTests: XCTestCase {
    /// A-label, the word it encodes, whether it is shown decoded here.
    private static let words: [(label: String, word: String, shown: Bool)] = [
        // Malayalam അവന്‍ ("he") and കാര്‍, the old chillu spelling: virama + ZWJ.
        ("xn--uvc4esb1fu40i", "\u{D05}\u{D35}\u{D28}\u{D4D}\u{200D}", true),
        ("xn--bwc8cxb7c442l", "\u{D15}\u{D3E}\u{D30}\u{D4D}\u{200D}", true),
        // Devanagari क्‍ष (the half form) and क्‌ष (the explicit virama): virama + ZWJ, virama + ZWNJ.
        ("xn--11b2ezcw70k", "\u{915}\u{94D}\u{200D}\u{937}", true),
        ("xn--11b2ezcs70k", "\u{915}\u{94D}\u{200C}\u{937}", true),
        // Persian می‌خواهم: a ZWNJ between joining letters, allowed by IDNA 2008's joining-type rule, not done here.
        ("xn--mgbn2ecje63gr19l", "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}", false),
        // A joiner after a letter, or first: refused by IDNA 2008 too.
        ("xn--abc-fn0a", "ab\u{200D}c", false),
        ("xn--bucher-qf0c", "bu\u{200D}cher", false),
        ("xn--11b378i", "\u{200D}\u{915}", false),
    ]

    func testAJoinerIsShownAfterAViramaOnly() {
        for (label, word, shown) in Self.words {
            XCTAssertEqual(Punycode.decode(label.dropFirst(4)).map { String(String.UnicodeScalarView($0)) }, word, label)
            XCTAssertEqual(IDNA.unicodeLabel(label), shown ? word : nil, label)
            XCTAssertEqual(IDNA.unicodeEmail("a@\(label).example"), "a@\(shown ? word : label).example", label)
        }
    }

    /// Python's `idna` (IDNA 2008) agrees: every label shown here it decodes to the same word, and it refuses the
    /// joiners not after a virama; it allows the Persian ZWNJ, the one case left out here.
    func testPythonIDNA2008Agrees() throws {
        let oracle = """
        import json, sys
        import idna
        out = []
        for label in sys.argv[1:]:
            try:
                out.append(idna.decode(label))
            except idna.IDNAError:
                out.append(None)
        print(json.dumps(out))
        """
        let probe = try ChildProcess.run("/usr/bin/env", ["python3", "-c", "import idna"])
        try XCTSkipIf(probe.status != 0, "no python3 with the idna package on the PATH")
        let r = try ChildProcess.run("/usr/bin/env", ["python3", "-c", oracle] + Self.words.map(\.label))
        XCTAssertEqual(r.status, 0, r.stderr)
        let decoded = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [Any])
        XCTAssertEqual(decoded.count, Self.words.count)
        for ((label, word, shown), python) in zip(Self.words, decoded) {
            let pythonWord = python as? String
            if shown { XCTAssertEqual(pythonWord, word, label) }
            if label == "xn--mgbn2ecje63gr19l" {
                XCTAssertEqual(pythonWord, word, "IDNA 2008 allows the joining-type ZWNJ")
            } else if !shown {
                XCTAssertNil(pythonWord, label)
            }
        }
    }
}
