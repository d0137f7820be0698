import EventModel
import Projections
import XCTest

/// An address at an internationalised domain completes by its domain as people read it (`bü`, `buch`), by the whole
/// address so read (`bob@bü`) and, as before, by the address as the mail wrote it; a label the display rules keep as
/// it is (Latin mixed with Cyrillic) adds no token. Every path agrees: the short prefixes' lists, a long prefix's
/// lists, the scan.
final class ContactIDNATests: XCTestCase {
    private let bob = "bob@xn--bcher-kva.example", ivan = "ivan@mail.xn--e1afmkfd.xn--p1ai", spoof = "m@xn--pypal-4ve.example"

    func testAnInternationalisedDomainCompletesAsPeopleReadIt() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let senders = [EmailAddress(name: "Bob", email: bob), EmailAddress(name: nil, email: ivan), EmailAddress(name: nil, email: spoof)]
        try harness.fold(senders.enumerated().map { i, from in received(i, from: from, at: Int64(100 + i)) }, account: "acc")
        let reader = ContactsReader(harness.snapshot)
        func complete(_ prefix: String) throws -> [String] { try reader.completedBothWays(prefix) }
        XCTAssertEqual(try complete("bü"), [bob], "the U-label")
        XCTAssertEqual(try complete("BÜCHER"), [bob])
        XCTAssertEqual(try complete("buch"), [bob], "without the umlaut")
        XCTAssertEqual(try complete("bob@bü"), [bob], "the address as people read it")
        XCTAssertEqual(try complete("bob@bücher.example"), [bob], "all of it: a long prefix's lists")
        XCTAssertEqual(try complete("bob@xn--b"), [bob], "the address as the mail wrote it")
        XCTAssertEqual(try complete("приме"), [ivan], "a Cyrillic label")
        XCTAssertEqual(try complete("рф"), [ivan])
        XCTAssertEqual(try complete("ivan@mail.пр"), [ivan])
        XCTAssertEqual(try complete("pаypal"), [], "a mixed-script label is not decoded")
        XCTAssertEqual(try complete("m@xn--pypal"), [spoof])
        XCTAssertEqual(try reader.complete(account: "acc", prefix: "bü", limit: 1).first?.address, bob, "the address kept as the mail had it")
    }

    /// The tokens of an address with no A-label are what they were: no IDN token is made for it.
    func testAnASCIIDomainGetsNoMoreTokens() {
        XCTAssertEqual(ContactsProjector.tokens(name: nil, address: "xn@example.com"), ["xn@example.com"])
        XCTAssertEqual(ContactsProjector.tokens(name: nil, address: bob), [bob, "bob@bücher.example", "bücher", "bucher"])
    }

    /// Mail `e<i>` from `from` to me, dated `at` microseconds.
    private func received(_ i: Int, from: EmailAddress, at: Int64) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s", from: [from],
            to: [EmailAddress(name: "Me", email: "me@home.org")], date: Timestamp(microseconds: at), dateSource: .header,
            size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
    }
}
