import EventModel
import Projections
import XCTest

/// An email's sender in the threads view is its first From address with an `@`: an event recorded when the parser
/// split `Smith, John <john@example.com>` into `Smith` and `John <john@example.com>` shows John, named `Smith, John`.
final class ThreadsSenderTests: XCTestCase {
    func testTheSenderOfAnOldEventWithASplitNameIsTheAddress() throws {
        let event = DomainEvent.emailReceived(EmailReceived(
            emailID: "e1", folder: "INBOX", messageID: "m1@x", subject: "Hi",
            from: [EmailAddress(name: nil, email: "Smith"), EmailAddress(name: "John", email: "john@example.com")],
            date: Timestamp(microseconds: 1_700_000_000_000_000), dateSource: .header,
            size: 10, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
        let harness = FoldHarness(types: [ThreadsProjector.self])
        try harness.fold([event], account: "acct")
        let reader = ThreadsReader(harness.snapshot)
        let john = EmailAddress(name: "Smith, John", email: "john@example.com")
        XCTAssertEqual(try reader.email(id: "e1")?.sender, john)
        let thread = try XCTUnwrap(try reader.email(id: "e1")?.threadID)
        XCTAssertEqual(try reader.thread(id: thread)?.participants, [john])
    }
}
