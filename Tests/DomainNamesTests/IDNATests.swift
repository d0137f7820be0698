import Foundation
import DomainNames
import TestSupport
import XCTest

/// IDNA's A-labels shown as U-labels only when they pass the browsers' rules, checked against Python's
/// `encodings.idna` (IDNA 2003) and its `punycode` codec.
final class IDNATests: XCTestCase {
    /// Valid labels, labels that decode but fail a rule, and labels that are not Punycode at all.
    private static let labels = [
        "xn--bcher-kva", "xn--mnchen-3ya", "xn--tda", "xn--1-dha", "xn--e1afmkfd", "xn--p1ai", "xn--fiqs8s", "xn--wgbh1c",
        "xn--3e0b707e", "xn--hxargifdar", "xn--80adxhks", "xn--dckta9e8a4kpd", "xn--tdaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "xn--ls8h", "xn--n3h", "xn--x-iv3s", "xn--80ak6aa92e", "xn--pypal-4ve", "xn--pypal-d9d", "xn--80a1aib",
        "xn--ab-m1t", "xn--ab-5da", "xn--ab-g4t", "xn--bucher-xyd", "xn--cher-zra77610b", "xn--a-bcb", "xn--zca",
        "xn--tda51b", "xn--a-xbb", "xn--", "xn---", "xn--abc-", "xn--abc", "xn--zz", "xn--a", "xn--99999999999999999999a",
        "xn--ab-cd-ef", "xn--bcher-kva9", "xn--bcher-kv", "xn--bcher_kva", "xn--0000h", "xn--tda-", "xn--Bcher-kva",
        "xn--BCHER-KVA", "xn--zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
    ]

    /// The labels Python shows decoded and these rules keep: symbols and emoji (`☃`, `💩`), a combining mark first, Latin
    /// mixed with Cyrillic (`pаypal`) or Greek (`pαypal`), Cyrillic that reads as Latin (`аррӏе`, `соса`).
    private static let keptThoughPythonDecodes: Set<String> = [
        "xn--ls8h", "xn--n3h", "xn--x-iv3s", "xn--80ak6aa92e", "xn--pypal-4ve", "xn--pypal-d9d", "xn--80a1aib", "xn--a-bcb",
    ]

    private static let oracle = """
    import codecs, encodings.idna, json, sys
    def attempt(f):
        try:
            s = f()
        except Exception:
            return None
        # A surrogate is no Unicode scalar: Swift's decoder refuses it.
        return None if any(0xD800 <= ord(c) <= 0xDFFF for c in s) else s
    out = []
    for label in sys.argv[1:]:
        low = label.lower()
        out.append([label, attempt(lambda: codecs.decode(low[4:].encode(), 'punycode')),
                    attempt(lambda: encodings.idna.ToUnicode(low))])
    print(json.dumps(out))
    """

    func testTheDecoderAndTheULabelsAgreeWithPython() throws {
        let r = try ChildProcess.run("/usr/bin/python3", ["-c", Self.oracle] + Self.labels)
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[Any]])
        XCTAssertEqual(rows.count, Self.labels.count)
        var kept: Set<String> = []
        for row in rows {
            let label = try XCTUnwrap(row[0] as? String)
            let decoded = Punycode.decode(label.lowercased().dropFirst(4)).map { String(String.UnicodeScalarView($0)) }
            XCTAssertEqual(decoded, row[1] as? String, "Punycode of \(label)")
            let shown = IDNA.unicodeLabel(label)
            if let shown {
                XCTAssertEqual(shown, row[2] as? String, "U-label of \(label)")
            } else if row[2] is String {
                kept.insert(label)
            }
        }
        XCTAssertEqual(kept, Self.keptThoughPythonDecodes)
    }

    func testAddressesShowTheirULabels() {
        XCTAssertEqual(IDNA.unicodeEmail("user@xn--bcher-kva.example"), "user@bücher.example")
        XCTAssertEqual(IDNA.unicodeEmail("User@XN--BCHER-KVA.Example"), "User@bücher.Example")
        XCTAssertEqual(IDNA.unicodeEmail("a@mail.xn--e1afmkfd.xn--p1ai"), "a@mail.пример.рф")
        // The local part is never decoded; only the domain after the last @.
        XCTAssertEqual(IDNA.unicodeEmail("xn--tda@example.com"), "xn--tda@example.com")
        XCTAssertEqual(IDNA.unicodeEmail("no-at-sign xn--tda"), "no-at-sign xn--tda")
        // One label kept, the next shown.
        XCTAssertEqual(IDNA.unicodeEmail("a@xn--pypal-4ve.xn--tda"), "a@xn--pypal-4ve.ü")
    }

    func testALabelThatWouldHideOrSpoofStaysAsGiven() {
        for label in ["xn--ab-m1t", "xn--ab-5da", "xn--ab-g4t", "xn--abc", "xn--pypal-4ve", "xn--80ak6aa92e", "xn--zca",
                      "xn--bucher-xyd", "xn--cher-zra77610b", "xn--abc-"] {
            XCTAssertNil(IDNA.unicodeLabel(label), label)
            XCTAssertEqual(IDNA.unicodeEmail("a@\(label).example"), "a@\(label).example")
        }
        // Cyrillic that does not read as Latin is shown.
        XCTAssertEqual(IDNA.unicodeLabel("xn--80adxhks"), "москва")
    }

    /// A label over 63 bytes and a domain over 253 are no host names: shown as given, however they would decode.
    func testLabelsAndDomainsPastDNSBoundsStayAsGiven() throws {
        func label(_ letters: Int) throws -> String {
            "xn--" + (try XCTUnwrap(Punycode.encode(Array((String(repeating: "a", count: letters) + "ü").unicodeScalars))))
        }
        let longest = try label(55)
        XCTAssertEqual(longest.utf8.count, IDNA.maxLabelBytes)
        XCTAssertEqual(IDNA.unicodeLabel(longest), String(repeating: "a", count: 55) + "ü")
        let tooLong = try label(56)
        XCTAssertEqual(tooLong.utf8.count, IDNA.maxLabelBytes + 1)
        XCTAssertNil(IDNA.unicodeLabel(tooLong))
        XCTAssertNil(Punycode.decode(tooLong.dropFirst(4)))

        let filler = Array(repeating: String(repeating: "a", count: 63), count: 3).joined(separator: ".")
        let atBound = filler + ".xn--bcher-kva" + String(repeating: ".b", count: (IDNA.maxDomainBytes - filler.utf8.count - 14) / 2)
        XCTAssertEqual(atBound.utf8.count, IDNA.maxDomainBytes)
        XCTAssertTrue(IDNA.unicodeDomain(atBound).contains(".bücher."))
        let pastBound = atBound + "c"
        XCTAssertEqual(pastBound.utf8.count, IDNA.maxDomainBytes + 1)
        XCTAssertEqual(IDNA.unicodeDomain(pastBound), pastBound)
    }
}
