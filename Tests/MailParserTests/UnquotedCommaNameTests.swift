import XCTest
@testable import MailParser

/// Outlook's unquoted comma in an author's display name (`From: Smith, John <john@example.com>`): one mailbox named
/// `Smith, John` in From, Sender and Reply-To; recipient lists keep the grammar's reading.
final class UnquotedCommaNameTests: XCTestCase {
    func testAuthorHeadersKeepTheCommaInTheName() {
        let m = parse("""
        From: Smith, John <john@example.com>
        Sender: Doe, Jane <jane@example.com>
        Reply-To: Smith, Jr., John <john@example.com>, Roe, Rick <rick@example.com>
        To: root, John <john@example.com>
        Cc: Lee, Ann <ann@example.com>

        x
        """)
        XCTAssertEqual(m.from, [MailAddress(name: "Smith, John", email: "john@example.com")])
        XCTAssertEqual(m.sender, MailAddress(name: "Doe, Jane", email: "jane@example.com"))
        XCTAssertEqual(m.replyTo, [MailAddress(name: "Smith, Jr., John", email: "john@example.com"),
                                   MailAddress(name: "Roe, Rick", email: "rick@example.com")])
        // A recipient list is read as written: `root` is a local user.
        XCTAssertEqual(m.to.map(\.email), ["root", "john@example.com"])
        XCTAssertEqual(m.cc.map(\.email), ["Lee", "ann@example.com"])
        XCTAssertEqual(MailAddress.sender(of: m.from)?.email, "john@example.com")
    }

    func testOnlyWordsBeforeAnAngleAddressJoin() {
        // A bare address, a quoted name or a group after the comma: separate mailboxes, as before.
        XCTAssertEqual(parse("From: root, john@example.com\n\nx").from.map(\.email), ["root", "john@example.com"])
        XCTAssertEqual(parse("From: Smith, \"John\" <john@example.com>\n\nx").from.map(\.name), ["Smith, John"])
        XCTAssertEqual(parse("From: a@example.com, Smith, John <john@example.com>\n\nx").from,
                       [MailAddress(name: nil, email: "a@example.com"), MailAddress(name: "Smith, John", email: "john@example.com")])
        XCTAssertEqual(parse("From: \"Smith, John\" <john@example.com>\n\nx").from,
                       [MailAddress(name: "Smith, John", email: "john@example.com")])
        XCTAssertEqual(MailAddress.parseList("Smith, John <john@example.com>").map(\.email), ["Smith", "john@example.com"])
    }

    /// Many bare words without a mailbox after them: each comma's look-ahead is shared (a linear parse).
    func testManyBareWordsStayLinear() {
        let value = Array(repeating: "word", count: 5_000).joined(separator: ", ")
        let m = parse("From: \(value)\n\nx")
        XCTAssertEqual(m.from.count, 1_000)
        let named = parse("From: \(value) <w@example.com>\n\nx")
        XCTAssertEqual(named.from.count, 1)
        XCTAssertEqual(named.from.first?.email, "w@example.com")
    }
}
