import EventLog
import EventModel
import Projections
import Views
import XCTest

/// The contacts view's autocomplete ranking and the drafts view's versions, folded from events alone.
final class ContactsViewTests: ViewsTestCase {
    private func mail(_ id: String, from: EmailAddress, to: [EmailAddress]) throws {
        let p = EmailReceived(emailID: id, folder: "INBOX", messageID: "\(id)@x", subject: "s", from: [from], to: to, date: tick(),
                              dateSource: .header, size: 1, blob: BlobHash(bytes: [UInt8](repeating: 4, count: 32))!)
        try event(.emailReceived(p), stream: .email(id))
    }

    func testPeopleWhoWroteRankFirstThenFrequencyThenRecency() throws {
        let me = EmailAddress(name: "Me", email: "me@example.com")
        let alice = EmailAddress(name: "Alice Liddell", email: "alice@example.com")
        let albert = EmailAddress(name: "Albert", email: "albert@example.com")
        let alan = EmailAddress(name: nil, email: "alan@example.com")
        try mail("1", from: alice, to: [me])
        for i in 0..<5 { try mail("a\(i)", from: me, to: [albert]) }
        try mail("n1", from: me, to: [alan])
        let found = try views().completeContacts(account: "acct", prefix: "AL")
        XCTAssertEqual(found.map(\.address), ["alice@example.com", "albert@example.com", "alan@example.com"])
        XCTAssertEqual(found.first?.sent, 1)
        XCTAssertEqual(try views().completeContacts(account: "acct", prefix: "lidd").map(\.address), ["alice@example.com"],
                       "a word of the name")
        XCTAssertEqual(try views().completeContacts(account: "acct", prefix: "al", limit: 1).count, 1)
        XCTAssertTrue(try views().completeContacts(account: "acct", prefix: "").isEmpty)
        let report = try views().compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }

    func testAnAddressPastSMTPsLengthLimitIsNoContact() throws {
        let me = EmailAddress(name: "Me", email: "me@example.com")
        let longest = String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 185) + ".com"
        let tooLong = String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 186) + ".com"
        XCTAssertEqual(longest.utf8.count, ViewBounds.maxAddressBytes)
        try mail("1", from: EmailAddress(name: "Long", email: longest), to: [me])
        try mail("2", from: EmailAddress(name: "Longer", email: tooLong), to: [me])
        XCTAssertEqual(try views().completeContacts(account: "acct", prefix: "aaaa").map(\.address), [longest])
        XCTAssertEqual(try views().completeContacts(account: "acct", prefix: "long").map(\.address), [longest],
                       "the longer one is under no token")
        let report = try views().compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }

    func testEveryDraftVersionIsKeptAndTheViewShowsTheLatest() throws {
        for v in 1...3 {
            try event(.draftSaved(DraftSaved(draftID: "d1", draftVersion: UInt32(v), subject: "v\(v)", body: "body \(v)")), stream: "draft/d1")
        }
        let v = try views()
        XCTAssertEqual(try v.draft(id: "d1")?.latest.subject, "v3")
        XCTAssertEqual(try v.drafts(account: "acct").count, 1)
        var saved = 0
        try store.log.scan(filter: ScanFilter(types: [.draftSaved])) { _ in
            saved += 1
            return true
        }
        XCTAssertEqual(saved, 3)
        try event(.draftDeleted(DraftDeleted(draftID: "d1")), stream: "draft/d1")
        XCTAssertNil(try views().draft(id: "d1"))
    }
}
