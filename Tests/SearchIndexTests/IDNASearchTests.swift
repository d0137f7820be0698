import SearchQuery
import XCTest

/// An address at an internationalised domain is found by its A-label, as mail carries it, and by its U-label, as people
/// read it (`IDNA`); a label the display rules keep as it is (Latin mixed with Cyrillic) is found only as given.
final class IDNASearchTests: SearchIndexTestCase {
    static let messages: [(folder: String, name: String, text: String)] = [
        ("INBOX", "1:2,S", """
        From: Bob <bob@xn--bcher-kva.example>
        To: me@example.com
        Cc: Ivan <ivan@mail.xn--e1afmkfd.xn--p1ai>
        Subject: books
        Date: Mon, 1 Jan 2024 10:00:00 +0000
        Message-ID: <idn@example.com>

        the order
        """),
        ("INBOX", "2:2,S", """
        From: Mallory <m@xn--pypal-4ve.example>
        To: me@example.com
        Subject: your account
        Date: Tue, 2 Jan 2024 10:00:00 +0000
        Message-ID: <spoof@example.com>

        log in here
        """),
    ]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try importMessages(Self.messages)
    }

    func testAnAddressIsFoundByEitherFormOfItsDomain() throws {
        XCTAssertEqual(try ids("from:bücher"), ["idn@example.com"], "the U-label")
        XCTAssertEqual(try ids("from:bucher"), ["idn@example.com"], "without the umlaut, as all text is")
        XCTAssertEqual(try ids("from:bob@bücher.example"), ["idn@example.com"], "the whole address as people read it")
        XCTAssertEqual(try ids("from:bob@xn--bcher-kva.example"), ["idn@example.com"], "the whole address as mail has it")
        XCTAssertEqual(try ids("from:xn--bcher-kva"), ["idn@example.com"], "the A-label")
        XCTAssertEqual(try ids("cc:пример.рф"), ["idn@example.com"], "a Cyrillic domain")
        XCTAssertEqual(try ids("bücher"), ["idn@example.com"], "any field")
    }

    func testASpoofingLabelIsFoundOnlyAsGiven() throws {
        XCTAssertEqual(try ids("from:xn--pypal-4ve"), ["spoof@example.com"])
        XCTAssertEqual(try ids("from:pаypal"), [], "its mixed-script decoding is not indexed")
    }
}
