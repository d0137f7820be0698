import XCTest
@testable import MailParser

final class ParticipantsTests: XCTestCase {
    func testOrderAndDeduplication() {
        let m = parse("""
        From: Alice <Alice@Example.com>
        To: bob@example.com, ALICE@example.com, Carol <carol@example.com>
        Cc: Bob Builder <BOB@example.com>, "" <dave@example.com>, carol@example.com
        Bcc: secret@example.com

        x
        """)
        XCTAssertEqual(m.participants, [
            MailAddress(name: "Alice", email: "Alice@Example.com"),
            MailAddress(name: "Bob Builder", email: "bob@example.com"),
            MailAddress(name: "Carol", email: "carol@example.com"),
            MailAddress(name: nil, email: "dave@example.com"),
        ])
    }

    func testSenderUsedWhenFromMissingAndEmptyAddressesSkipped() {
        let m = parse("Sender: s@example.com\nTo: Just A Name, t@example.com\n\nx")
        XCTAssertEqual(m.participants.map(\.email), ["s@example.com", "t@example.com"])
    }
}
