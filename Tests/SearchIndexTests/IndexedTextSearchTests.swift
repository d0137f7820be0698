import SearchQuery
import XCTest

/// Text is found whichever normal form the mail and the query wrote it in (`IndexedText`): decomposed text (macOS
/// file names: Hangul as jamo, kana with a separate voicing mark) by the word typed composed and the reverse; Greek
/// without its accents, in capitals, with final sigma; Russian ё as е. What a result shows stays as the mail had it.
final class IndexedTextSearchTests: SearchIndexTestCase {
    static let messages: [(folder: String, name: String, text: String)] = [
        ("INBOX", "1:2,S", """
        From: Jose\u{301} Mu\u{308}ller <jm@example.es>
        To: me@example.com
        Subject: minutes
        Date: Mon, 1 Jan 2024 10:00:00 +0000
        Message-ID: <nfd@example.com>
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary=BB

        --BB
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: 8bit

        the \u{30AB}\u{3099}\u{30A4}\u{30C8}\u{3099} attached
        --BB
        Content-Type: application/pdf
        Content-Disposition: attachment; filename*=UTF-8''%E1%84%92%E1%85%AC%E1%84%8B%E1%85%B4%E1%84%85%E1%85%A9%E1%86%A8.pdf

        x
        --BB--
        """),
        ("INBOX", "2:2,S", """
        From: Nikos <nikos@example.gr>
        To: me@example.com
        Subject: =?utf-8?B?zpXOu867zqzOtM6x?=
        Date: Tue, 2 Jan 2024 10:00:00 +0000
        Message-ID: <greek@example.gr>
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: 8bit

        Καλημέρα, σίσυφος. Новая ёлка и мой дом.
        """),
        ("INBOX", "3:2,S", """
        From: Eleni <eleni@example.gr>
        To: me@example.com
        Subject: =?utf-8?B?zpXOu867zrHMgc60zrE=?=
        Date: Wed, 3 Jan 2024 10:00:00 +0000
        Message-ID: <greeknfd@example.gr>

        decomposed subject
        """),
    ]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try importMessages(Self.messages)
    }

    func testDecomposedTextIsFoundByComposedWordsAndTheReverse() throws {
        XCTAssertEqual(try ids("attachment:회의록"), ["nfd@example.com"], "a decomposed file name")
        XCTAssertEqual(try ids("회의록"), ["nfd@example.com"])
        XCTAssertEqual(try ids("회의*"), ["nfd@example.com"], "a prefix of it")
        XCTAssertEqual(try ids("ガイド"), ["nfd@example.com"], "decomposed kana in a body")
        XCTAssertEqual(try ids("\u{30AB}\u{3099}\u{30A4}\u{30C8}\u{3099}"), ["nfd@example.com"], "typed decomposed")
        XCTAssertEqual(try ids("カ"), [], "the voicing mark does not split the word")
        XCTAssertEqual(try ids("from:josé"), ["nfd@example.com"], "a decomposed sender name")
        XCTAssertEqual(try ids("from:müller"), ["nfd@example.com"])
        XCTAssertEqual(try ids("from:muller"), ["nfd@example.com"])
        XCTAssertEqual(try ids("Ελλάδα"), ["greeknfd@example.gr", "greek@example.gr"], "composed finds both forms")
        XCTAssertEqual(try ids("Ελλα\u{301}δα"), ["greeknfd@example.gr", "greek@example.gr"], "decomposed finds both forms")
    }

    func testGreekIsAccentInsensitiveAndRussianYoIsYe() throws {
        for q in ["καλημερα", "ΚΑΛΗΜΕΡΑ", "καλημέρα", "Καλημέρα", "ΣΙΣΥΦΟΣ", "σισυφος", "σίσυφος", "σισυφ*", "subject:ελλαδα",
                  "ёлка", "елка", "ЁЛКА"] {
            XCTAssertEqual(try ids(q).filter { $0 == "greek@example.gr" }, ["greek@example.gr"], q)
        }
        XCTAssertEqual(try ids("мои"), [], "й stays a letter of its own")
        XCTAssertEqual(try ids("мой"), ["greek@example.gr"])
    }

    /// The index compares the indexed form; a result shows the subject as the mail had it.
    func testResultsShowTheTextAsTheMailHadIt() throws {
        var subjects: [String: [Unicode.Scalar]] = [:]
        try index().search(try SearchQuery.parse("ελλαδα")) { h in
            subjects[h.messageID ?? "?"] = Array(h.subject.unicodeScalars)
            return true
        }
        XCTAssertEqual(subjects["greek@example.gr"], Array("\u{395}\u{3BB}\u{3BB}\u{3AC}\u{3B4}\u{3B1}".unicodeScalars))
        XCTAssertEqual(subjects["greeknfd@example.gr"], Array("\u{395}\u{3BB}\u{3BB}\u{3B1}\u{301}\u{3B4}\u{3B1}".unicodeScalars))
    }
}
