import EventModel
import Projections
import XCTest

/// Mail that arrives in a Junk-role folder adds no contact: its senders were offered as recipients, ranked above the
/// people the user writes to for having written.
final class ContactsJunkTests: XCTestCase {
    private func mail(_ id: String, folder: String, from: String, to: String = "me@home.org") -> DomainEvent {
        .emailReceived(EmailReceived(emailID: id, folder: folder, messageID: "\(id)@t", subject: "s",
                                     from: [EmailAddress(name: nil, email: from)], to: [EmailAddress(name: nil, email: to)],
                                     date: Timestamp(microseconds: 1_700_000_000_000_000), dateSource: .header,
                                     size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
    }

    func testMailInJunkAddsNoContact() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        try harness.fold([
            .folderDiscovered(FolderDiscovered(folder: "[Gmail]/Spam", displayName: "Spam", role: .junk)),
            mail("a", folder: "[Gmail]/Spam", from: "spammer@pills.example", to: "victims@list.example"),
            mail("b", folder: "Junk", from: "offers@deals.example"),  // the role its name gives
            mail("c", folder: "INBOX", from: "sam@friends.example"),
            mail("d", folder: "[Gmail]/Spam", from: "sam@friends.example"),  // a friend caught by the filter once
        ], account: "acc")
        let reader = ContactsReader(harness.snapshot)
        let all = try reader.all(account: "acc")
        XCTAssertEqual(all.map(\.address).sorted(), ["me@home.org", "sam@friends.example"])
        XCTAssertEqual(all.first { $0.address == "sam@friends.example" }?.count, 1, "the message in Spam counts for nothing")
        XCTAssertEqual(try reader.complete(account: "acc", prefix: "s").map(\.address), ["sam@friends.example"])
        XCTAssertEqual(try reader.complete(account: "acc", prefix: "o"), [])
        XCTAssertEqual(try reader.complete(account: "acc", prefix: "vic"), [])
    }

    /// `sentAs` (the user's aliases among a message's addresses) looks up at most 1,024 distinct addresses, whatever a
    /// hostile message names: repeats of one address use one lookup, and what lies past 1,024 others is not looked up.
    func testSentAsLooksUpAtMostItsBoundOfDistinctAddresses() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        try harness.fold([
            .folderDiscovered(FolderDiscovered(folder: "Sent", displayName: "Sent", role: .sent)),
            mail("s", folder: "Sent", from: "alias@me.example", to: "friend@x.example"),
            mail("i", folder: "INBOX", from: "friend@x.example"),
        ], account: "acc")
        let reader = ContactsReader(harness.snapshot)
        let repeats = Array(repeating: "friend@x.example", count: 5_000) + ["ALIAS@me.example"]
        XCTAssertEqual(try reader.sentAs(account: "acc", among: repeats), ["alias@me.example"])
        let many = (0..<1_100).map { "p\($0)@x.example" } + ["alias@me.example"]
        XCTAssertEqual(try reader.sentAs(account: "acc", among: many), [])
        XCTAssertEqual(try reader.sentAs(account: "acc", among: [String(repeating: "a", count: 300) + "@x.example", "alias@me.example"]),
                       ["alias@me.example"], "an address past the bound is skipped, not looked up")
        XCTAssertEqual(try reader.sentAs(account: "acc", among: ["friend@x.example"]), [], "they write to the user")
    }
}
