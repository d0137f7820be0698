import XCTest
@testable import MailParser

final class SnippetTests: XCTestCase {
    func testWhitespaceCollapsedAndTrimmed() {
        XCTAssertEqual(Snippet.make(fromPlainText: "  Hello,\n\n   world\t\tagain  \n"), "Hello, world again")
    }

    func testQuotesAndAttributionDropped() {
        let text = """
        Thanks, that works.

        On Tue, 17 Nov 2009 14:00:54 -0500, Lars <lars@example.com> wrote:
        > I saw the article
        >> and more quoted
        Inline answer here.
        """
        XCTAssertEqual(Snippet.make(fromPlainText: text), "Thanks, that works. Inline answer here.")
    }

    func testWrappedAttributionDropped() {
        let text = """
        Short reply.
        On Mon, Jan 1, 2024 at 10:00 AM John Doe <
        john@example.com> wrote:

        > quoted
        """
        XCTAssertEqual(Snippet.make(fromPlainText: text), "Short reply.")
    }

    func testOtherLanguagesAttribution() {
        XCTAssertEqual(Snippet.make(fromPlainText: "Danke!\nAm 1.1.2024 schrieb Hans:\n> zitat"), "Danke!")
        XCTAssertEqual(Snippet.make(fromPlainText: "Спасибо!\n2025-12-31 17:53, Сергей Волков пишет:\n> цитата"), "Спасибо!")
        XCTAssertEqual(Snippet.make(fromPlainText: "Grazie!\nIl giorno 1 gen 2024, Marco ha scritto:\n> testo"), "Grazie!")
    }

    func testWroteLineNotFollowedByQuoteIsKept() {
        XCTAssertEqual(Snippet.make(fromPlainText: "He wrote:\nnothing quoted here"), "He wrote: nothing quoted here")
    }

    func testSignatureDropped() {
        XCTAssertEqual(Snippet.make(fromPlainText: "Body text\n-- \nJohn Doe\nACME"), "Body text")
        XCTAssertEqual(Snippet.make(fromPlainText: "Body text\n--\nJohn"), "Body text")
        XCTAssertEqual(Snippet.make(fromPlainText: "Body --- text\n---\nkept"), "Body --- text --- kept")
    }

    func testOutlookOriginalMessageCut() {
        XCTAssertEqual(Snippet.make(fromPlainText: "Top post\n-----Original Message-----\nFrom: x"), "Top post")
    }

    func testHundredCharacterCapGraphemeSafe() {
        let long = String(repeating: "abcdefghij ", count: 30)
        let s = Snippet.make(fromPlainText: long)
        XCTAssertLessThanOrEqual(s.count, 100)
        XCTAssertGreaterThanOrEqual(s.count, 98)
        let emoji = String(repeating: "👨‍👩‍👧‍👦", count: 150)
        let e = Snippet.make(fromPlainText: emoji)
        XCTAssertEqual(e.count, 100)
        XCTAssertTrue(e.allSatisfy { $0 == "👨‍👩‍👧‍👦" })
    }

    func testHTMLToText() {
        let html = """
        <html><head><title>T</title><style>p { color: red }</style></head>
        <body><!-- hidden --><script>var x = "<p>no</p>";</script>
        <p>Hello&nbsp;&amp; welcome &lt;friend&gt; &quot;x&quot; &#39;y&#39; &#x41;&#66;</p><br>Second<div>line</div>
        </body></html>
        """
        let text = HTMLText.plainText(html)
        XCTAssertFalse(text.contains("color"))
        XCTAssertFalse(text.contains("no"))
        XCTAssertFalse(text.contains("hidden"))
        XCTAssertFalse(text.contains("T\n"))
        XCTAssertEqual(Snippet.make(fromHTML: html), "Hello & welcome <friend> \"x\" 'y' AB Second line")
    }

    func testHTMLBlockquoteAndAttributionDropped() {
        let html = """
        <div dir="ltr">My answer</div><div class="gmail_quote"><div class="gmail_attr">On Mon, Jan 1, 2024 \
        Bob &lt;bob@x.y&gt; wrote:<br></div><blockquote class="gmail_quote">old <blockquote>older</blockquote> \
        text</blockquote></div>
        """
        XCTAssertEqual(Snippet.make(fromHTML: html), "My answer")
    }

    func testPlainPreferredElseHTML() {
        let both = parse("""
        Content-Type: multipart/alternative; boundary=x

        --x
        Content-Type: text/plain

        plain version
        --x
        Content-Type: text/html

        <p>html version</p>
        --x--
        """)
        XCTAssertEqual(both.snippet, "plain version")
        let htmlOnly = parse("Content-Type: text/html\n\n<p>Only&nbsp;<i>html</i></p>")
        XCTAssertEqual(htmlOnly.snippet, "Only html")
        XCTAssertNil(htmlOnly.textBody)
        let emptyPlain = parse("""
        Content-Type: multipart/alternative; boundary=x

        --x
        Content-Type: text/plain

        \n--x
        Content-Type: text/html

        <p>from html</p>
        --x--
        """)
        XCTAssertEqual(emptyPlain.snippet, "from html")
    }

    func testSnippetOfMessageDropsQuotesAndSignature() {
        let m = parse("""
        Subject: Re: x

        Sounds good to me.

        On Mon, 1 Jan 2024, Alice wrote:
        > Shall we?

        --\u{20}
        Bob
        """)
        XCTAssertEqual(m.snippet, "Sounds good to me.")
    }

    func testInvisibleCharactersRemoved() {
        XCTAssertEqual(Snippet.make(fromPlainText: "Hi\u{200B}\u{034F} there\u{FEFF}"), "Hi there")
        XCTAssertEqual(Snippet.make(fromPlainText: "Sale\u{00A0}\u{200C} \u{200C}\u{00A0}\u{200C} now"), "Sale now")
        XCTAssertEqual(Snippet.make(fromPlainText: "a\u{200C}b"), "a\u{200C}b")
    }

    /// Terminal escape sequences go whole: what a message's text colours is kept, none of the sequence ("[31m").
    func testEscapeSequencesGoWhole() {
        XCTAssertEqual(Snippet.make(fromPlainText: "\u{1B}[31mRED\u{1B}[0m text"), "RED text")
        XCTAssertEqual(Snippet.make(fromPlainText: "\u{9B}1;4mbold\u{9B}0m and \u{1B}(0\u{1B}7plain"), "bold and plain")
        XCTAssertEqual(Snippet.make(fromPlainText: "a\u{1B}]0;title\u{07}b \u{1B}]8;;https://x.example/\u{1B}\\link\u{9D}8;;\u{9C} end"),
                       "ab link end")
        // One never ended goes to the end of its line only, at most `maxStringBytes` bytes.
        XCTAssertEqual(Snippet.make(fromPlainText: "before\u{1B}]52;c;never ended\nnext line"), "before next line")
        let long = "x\u{1B}]" + String(repeating: "p", count: EscapeSequence.maxStringBytes) + " after"
        XCTAssertEqual(Snippet.make(fromPlainText: long), "x" + String(repeating: "p", count: 2) + " after")
        // The snippet the parser makes at ingest, from a text and from an HTML body.
        let plain = MailParser.parse(Array("Subject: s\r\n\r\nStatus: \u{1B}[1;32mOK\u{1B}[0m, all green\r\n".utf8))
        XCTAssertEqual(plain.snippet, "Status: OK, all green")
        let html = MailParser.parse(Array("Content-Type: text/html\r\n\r\n<p>\u{1B}[31mRED&#27;[0m text</p>\r\n".utf8))
        XCTAssertEqual(html.snippet, "RED text")
    }
}
