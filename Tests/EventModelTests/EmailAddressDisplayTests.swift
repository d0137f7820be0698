import EventModel
import XCTest

/// A display name is shown quoted when it holds an RFC 5322 special: `Evil <ceo@bank.com> <evil@example.org>` read
/// as two addresses.
final class EmailAddressDisplayTests: XCTestCase {
    func testANameWithSpecialsIsQuotedAsPythonWritesIt() {
        XCTAssertEqual(EmailAddress(name: "Evil <ceo@bank.com>", email: "evil@example.org").displayed,
                       "\"Evil <ceo@bank.com>\" <evil@example.org>")
        XCTAssertEqual(EmailAddress(name: "Doe, Jane", email: "j@example.org").displayed, "\"Doe, Jane\" <j@example.org>")
        XCTAssertEqual(EmailAddress(name: "J. \"Q\" Back\\slash", email: "q@example.org").displayed,
                       "\"J. \\\"Q\\\" Back\\\\slash\" <q@example.org>")
        XCTAssertEqual(EmailAddress(name: "Jane Doe", email: "j@example.org").displayed, "Jane Doe <j@example.org>")
        XCTAssertEqual(EmailAddress(name: "Jöns Ünal", email: "j@example.org").displayed, "Jöns Ünal <j@example.org>")
        XCTAssertEqual(EmailAddress(name: nil, email: "j@example.org").displayed, "j@example.org")
        XCTAssertEqual(EmailAddress(name: "", email: "j@example.org").displayed, "j@example.org")
    }
}
