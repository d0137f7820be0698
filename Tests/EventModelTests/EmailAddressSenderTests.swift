import EventModel
import XCTest

/// The sender of an event's From addresses, also as parsers before the unquoted-comma fix recorded them.
final class EmailAddressSenderTests: XCTestCase {
    func testFirstAddressWithAnAtAndTheNameSplitOffItPutBack() {
        // `From: Smith, John <john@example.com>` as the old parse recorded it.
        let old = [EmailAddress(name: nil, email: "Smith"), EmailAddress(name: "John", email: "john@example.com")]
        XCTAssertEqual(EmailAddress.sender(of: old), EmailAddress(name: "Smith, John", email: "john@example.com"))
        XCTAssertEqual(EmailAddress.sender(of: [EmailAddress(name: nil, email: "Smith"), EmailAddress(name: nil, email: "Jr."),
                                                EmailAddress(name: "John", email: "j@example.com")]),
                       EmailAddress(name: "Smith, Jr., John", email: "j@example.com"))
        // As the parser records it now.
        let now = [EmailAddress(name: "Smith, John", email: "john@example.com")]
        XCTAssertEqual(EmailAddress.sender(of: now), now[0])
        // A named entry before is not a split name; nothing with an `@`: the first.
        XCTAssertEqual(EmailAddress.sender(of: [EmailAddress(name: "Sales", email: "Smith"), EmailAddress(name: "John", email: "j@x.org")]),
                       EmailAddress(name: "John", email: "j@x.org"))
        XCTAssertEqual(EmailAddress.sender(of: [EmailAddress(name: "Someone", email: "")]), EmailAddress(name: "Someone", email: ""))
        XCTAssertNil(EmailAddress.sender(of: []))
    }
}
