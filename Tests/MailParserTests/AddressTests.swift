import XCTest
@testable import MailParser

final class AddressTests: XCTestCase {
    func testSimpleForms() {
        let list = MailAddress.parseList("John Doe <John.Doe@Example.COM>, jane@example.org, <bare@x.y>")
        XCTAssertEqual(list.count, 3)
        XCTAssertEqual(list[0], MailAddress(name: "John Doe", email: "John.Doe@Example.COM"))
        XCTAssertEqual(list[0].normalizedEmail, "john.doe@example.com")
        XCTAssertEqual(list[1], MailAddress(name: nil, email: "jane@example.org"))
        XCTAssertEqual(list[2], MailAddress(name: nil, email: "bare@x.y"))
        XCTAssertNil(list[0].raw)
    }

    func testQuotedNamesWithEscapesAndCommas() {
        let list = MailAddress.parseList(#""Doe, John \"JD\"" <jd@example.com>, "a\\b" <ab@example.com>"#)
        XCTAssertEqual(list.map(\.name), ["Doe, John \"JD\"", "a\\b"])
        XCTAssertEqual(list.map(\.email), ["jd@example.com", "ab@example.com"])
    }

    func testComments() {
        let list = MailAddress.parseList("pete@example.com (Pete Smith), Mary (home) <mary@example.net>")
        XCTAssertEqual(list[0], MailAddress(name: "Pete Smith", email: "pete@example.com"))
        XCTAssertEqual(list[1].name, "Mary")
        XCTAssertEqual(list[1].email, "mary@example.net")
    }

    func testGroups() {
        XCTAssertEqual(MailAddress.parseList("undisclosed-recipients:;"), [])
        let list = MailAddress.parseList("Team: a@x.org, B <b@y.org>;, c@z.org")
        XCTAssertEqual(list.map(\.email), ["a@x.org", "b@y.org", "c@z.org"])
        XCTAssertEqual(list[1].name, "B")
    }

    func testObsoleteRouteAndSpaces() {
        let list = MailAddress.parseList("Route <@relay1,@relay2:user@example.com>, < spaced@example.com >")
        XCTAssertEqual(list.map(\.email), ["user@example.com", "spaced@example.com"])
        XCTAssertNil(list[1].raw)
    }

    func testEncodedWordDisplayNames() {
        let list = MailAddress.parseList("=?ISO-8859-1?Q?Patrik_F=E4ltstr=F6m?= <paf@example.com>, \"=?utf-8?B?w4RsaWNl?=\" <a@x.y>")
        XCTAssertEqual(list[0].name, "Patrik Fältström")
        XCTAssertEqual(list[1].name, "Älice")
    }

    func testMalformedKeepsRaw() {
        let list = MailAddress.parseList("\"Rodriguez-Herrera, Alfonso\"     Alfonso.Rodriguez-Herrera@SPIRENT.COM")
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list[0].name, "Rodriguez-Herrera, Alfonso")
        XCTAssertEqual(list[0].email, "Alfonso.Rodriguez-Herrera@SPIRENT.COM")
        XCTAssertEqual(list[0].raw, "\"Rodriguez-Herrera, Alfonso\"     Alfonso.Rodriguez-Herrera@SPIRENT.COM")

        let unclosed = MailAddress.parseList("Broken <broken@example.com")
        XCTAssertEqual(unclosed.first?.email, "broken@example.com")
        XCTAssertEqual(unclosed.first?.name, "Broken")
        XCTAssertNotNil(unclosed.first?.raw)

        let nameOnly = MailAddress.parseList("John Smith")
        XCTAssertEqual(nameOnly.first?.email, "")
        XCTAssertEqual(nameOnly.first?.name, "John Smith")
        XCTAssertEqual(nameOnly.first?.raw, "John Smith")

        let local = MailAddress.parseList("root")
        XCTAssertEqual(local.first?.email, "root")
        XCTAssertEqual(local.first?.raw, "root")
    }

    func testSemicolonSeparatedAndMissingCommas() {
        XCTAssertEqual(MailAddress.parseList("a@x.org; b@y.org").map(\.email), ["a@x.org", "b@y.org"])
        XCTAssertEqual(MailAddress.parseList("a@x.org b@y.org").map(\.email), ["a@x.org", "b@y.org"])
        XCTAssertEqual(MailAddress.parseList(" , ,a@x.org,,").map(\.email), ["a@x.org"])
    }

    func testEmailKeptAsWrittenButTrimmed() {
        let a = MailAddress.parseList("  <MiXeD@Example.Com>  ")[0]
        XCTAssertEqual(a.email, "MiXeD@Example.Com")
        XCTAssertEqual(a.normalizedEmail, "mixed@example.com")
    }

    func testMessageAddressHeadersAndWarning() {
        let m = parse("""
        From: "Alice" <alice@example.com>
        Sender: list-bounces@example.com
        Reply-To: list@example.com
        To: bob@example.com, Carol <carol@example.com>
        Cc: Team: dave@example.com;
        Bcc: eve@example.com
        X-Bad: x
        Subject: s

        body
        """)
        XCTAssertEqual(m.from, [MailAddress(name: "Alice", email: "alice@example.com")])
        XCTAssertEqual(m.sender?.email, "list-bounces@example.com")
        XCTAssertEqual(m.replyTo.map(\.email), ["list@example.com"])
        XCTAssertEqual(m.to.map(\.email), ["bob@example.com", "carol@example.com"])
        XCTAssertEqual(m.cc.map(\.email), ["dave@example.com"])
        XCTAssertEqual(m.bcc.map(\.email), ["eve@example.com"])
        XCTAssertFalse(hasWarning(m, .malformedAddress))
        let bad = parse("From: Someone Without Address\n\nx")
        XCTAssertTrue(hasWarning(bad, .malformedAddress))
    }

    /// A malformed value given twice (as list archives write From and Reply-To) is one warning; two different ones
    /// are two, each with its own text.
    func testTheSameMalformedValueTwiceIsOneWarning() {
        let value = "\"Doe, Jane\"      Jane.Doe@example.com"
        let twice = parse("From: \(value)\nReply-To: \(value)\n\nx")
        XCTAssertEqual(twice.from.map(\.email), ["Jane.Doe@example.com"])
        XCTAssertEqual(twice.replyTo.map(\.email), ["Jane.Doe@example.com"])
        XCTAssertEqual(twice.warnings.filter { $0.code == .malformedAddress }.map(\.detail), [value])
        let other = "\"Roe, Rick\"      Rick.Roe@example.com"
        let two = parse("From: \(value)\nReply-To: \(other)\n\nx")
        XCTAssertEqual(two.warnings.filter { $0.code == .malformedAddress }.map(\.detail), [value, other])
    }

    func testCodableRoundTrip() throws {
        let a = MailAddress(name: "N", email: "n@x.y", raw: "raw")
        let data = try JSONEncoder().encode(a)
        XCTAssertEqual(try JSONDecoder().decode(MailAddress.self, from: data), a)
    }
}
