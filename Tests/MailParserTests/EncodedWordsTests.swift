import XCTest
@testable import MailParser

final class EncodedWordsTests: XCTestCase {
    func testBase64UTF8() {
        XCTAssertEqual(EncodedWords.decode("=?UTF-8?B?R3LDvMOfZSBhdXMgS8O2bG4=?="), "Grüße aus Köln")
    }

    func testQuotedPrintableWithUnderscores() {
        XCTAssertEqual(EncodedWords.decode("=?iso-8859-1?q?caf=E9_cr=E8me?="), "café crème")
    }

    func testAdjacentWordsJoinedWithoutWhitespace() {
        XCTAssertEqual(EncodedWords.decode("=?utf-8?q?Hello?= =?utf-8?q?_World?="), "Hello World")
        XCTAssertEqual(EncodedWords.decode("=?utf-8?q?a?=\r\n =?utf-8?q?b?=\t=?utf-8?q?c?="), "abc")
    }

    func testWhitespaceBetweenWordAndTextIsKept() {
        XCTAssertEqual(EncodedWords.decode("Re: =?utf-8?q?caf=C3=A9?= time"), "Re: café time")
        XCTAssertEqual(EncodedWords.decode("plain text"), "plain text")
    }

    func testMultibyteCharacterSplitAcrossWords() {
        // "é" is C3 A9, split across two encoded words.
        XCTAssertEqual(EncodedWords.decode("=?utf-8?q?caf=C3?= =?utf-8?q?=A9?="), "café")
    }

    /// Words whose charset names differ only in case, or are aliases of one charset, are joined too: the
    /// halves of a character were decoded apart (`caf�� ok`).
    func testACharacterSplitAcrossWordsWithTheSameCharsetSpelledApart() {
        XCTAssertEqual(EncodedWords.decode("=?UTF-8?Q?caf=C3?= =?utf-8?Q?=A9_ok?="), "café ok")
        XCTAssertEqual(EncodedWords.decode("=?utf8?B?w6k=?= =?UTF-8?Q?=E2=82?= =?utf-8*en?Q?=AC?="), "é€")
        XCTAssertEqual(EncodedWords.decode("=?Shift_JIS?B?kw==?= =?x-sjis?B?+g==?="), "日")
        XCTAssertEqual(EncodedWords.decode("=?ISO-8859-1?Q?=E9?= =?utf-8?Q?=C3=A9?="), "éé")
    }

    func testMalformedWordsAreLeftAsIs() {
        XCTAssertEqual(EncodedWords.decode("=?utf-8?x?abc?="), "=?utf-8?x?abc?=")
        XCTAssertEqual(EncodedWords.decode("=?utf-8?b?not*base64!?="), "=?utf-8?b?not*base64!?=")
        XCTAssertEqual(EncodedWords.decode("=?utf-8?q?unterminated"), "=?utf-8?q?unterminated")
        XCTAssertEqual(EncodedWords.decode("a =? b"), "a =? b")
    }

    func testLegacyCharsets() {
        XCTAssertEqual(EncodedWords.decode("=?KOI8-R?B?8NLJ18XU?="), "Привет")
        XCTAssertEqual(EncodedWords.decode("=?Shift_JIS?B?k/qWe4zq?="), "日本語")
        XCTAssertEqual(EncodedWords.decode("=?GB2312?B?1tDOxA==?="), "中文")
        XCTAssertEqual(EncodedWords.decode("=?ISO-2022-JP?B?GyRCJDMkcyRLJEEkTxsoQg==?="), "こんにちは")
        XCTAssertEqual(EncodedWords.decode("=?ISO-8859-1?Q?Andr=E9?= Pirard"), "André Pirard")
    }

    func testLanguageSuffixAndUnknownCharset() {
        XCTAssertEqual(EncodedWords.decode("=?US-ASCII*EN?Q?Keith_Moore?="), "Keith Moore")
        let s = EncodedWords.decode("=?x-unknown-cs?q?abc=FF?=")
        XCTAssertTrue(s.hasPrefix("abc"))
    }

    func testSubjectInMessageIsDecoded() {
        let m = parse("Subject: =?utf-8?B?w4RwZmVs?= und =?utf-8?Q?Birnen?=\n\nx")
        XCTAssertEqual(m.subject, "Äpfel und Birnen")
        XCTAssertEqual(m.header("subject"), "=?utf-8?B?w4RwZmVs?= und =?utf-8?Q?Birnen?=")
    }
}
