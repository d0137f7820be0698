import EventModel
import Projections
import XCTest

/// A message counts once in the contacts view however many copies of it arrive: on Gmail each label is a folder with a
/// copy of its own (INBOX and Work), a message archived is recorded again in All Mail, and one found again at new UIDs is
/// recorded again. Each copy had counted, so the people of mail under labels ranked above the others.
final class ContactsCopiesTests: XCTestCase {
    private static let date = Timestamp(microseconds: 1_700_000_000_000_000)

    /// A copy in `folder` of the message `messageID` whose bytes hash to `blob` (a byte repeated).
    private func copy(_ emailID: String, _ folder: String, messageID: String? = "m@example.org", blob: UInt8 = 1,
                      from: String = "ann@friends.example", to: String = "me@home.org") -> DomainEvent {
        .emailReceived(EmailReceived(emailID: emailID, folder: folder, messageID: messageID, subject: "s",
                                     from: [EmailAddress(name: "Ann", email: from)], to: [EmailAddress(name: nil, email: to)],
                                     date: Self.date, dateSource: .header, size: 1,
                                     blob: BlobHash(bytes: [UInt8](repeating: blob, count: 32))!))
    }

    private func contact(_ harness: FoldHarness, _ address: String) throws -> Contact? {
        try ContactsReader(harness.snapshot).all(account: "acc").first { $0.address == address }
    }

    func testAMessageInSeveralFoldersCountsOnce() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        try harness.fold([copy("inbox", "INBOX"), copy("work", "Work")], account: "acc")
        // Later batches: archived (kept in All Mail), then found again at a new UID.
        try harness.fold([copy("inbox", "[Gmail]/All Mail")], account: "acc")
        try harness.fold([copy("work-again", "Work")], account: "acc")
        let ann = try XCTUnwrap(try contact(harness, "ann@friends.example"))
        XCTAssertEqual(ann.count, 1)
        XCTAssertEqual(ann.sent, 1)
        XCTAssertEqual(try contact(harness, "me@home.org")?.count, 1)
    }

    /// Another message under the same Message-ID (a sender chooses it) counts: only the same bytes are the same message;
    /// so does each copy of mail without a Message-ID whose bytes differ.
    func testAnotherMessageReusingTheMessageIDCounts() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        try harness.fold([copy("a", "INBOX"), copy("b", "INBOX", blob: 2),
                          copy("c", "INBOX", messageID: nil, blob: 3), copy("d", "INBOX", messageID: nil, blob: 4)], account: "acc")
        XCTAssertEqual(try contact(harness, "ann@friends.example")?.count, 4)
    }

    /// Mail the user sent themselves arrives in INBOX and in Sent: it counts once, and as written by them (its
    /// recipients are people they write to), in either order.
    func testMailSentToOneselfCountsOnceAndAsWrittenByThem() throws {
        for sentFirst in [false, true] {
            let harness = FoldHarness(types: [ContactsProjector.self])
            let inbox = copy("i", "INBOX", from: "me@home.org", to: "me@home.org")
            let sent = copy("s", "Sent", from: "me@home.org", to: "me@home.org")
            try harness.fold([.folderDiscovered(FolderDiscovered(folder: "Sent", displayName: "Sent", role: .sent))], account: "acc")
            try harness.fold(sentFirst ? [sent, inbox] : [inbox, sent], account: "acc")
            let me = try XCTUnwrap(try contact(harness, "me@home.org"))
            XCTAssertEqual([me.count, me.sent, me.wroteTo, me.wroteAs], [1, 1, 1, 1], "sent first: \(sentFirst)")
        }
    }

    /// The marks of a batch of more messages than `maxPending` are written in parts before the batch ends, as the
    /// contacts' records are: the table's cache holds at most that many whatever the batch holds.
    func testABatchOfMoreMessagesThanTheBoundWritesItsMarksInParts() throws {
        let store = CountingStore()
        let context = FoldContext(store: store)
        let projector = ContactsProjector(context: context)
        let messages = ContactsProjector.maxPending + 100
        var sequence: UInt64 = 0
        try projector.apply((0..<messages).map { self.copy("e\($0)", "INBOX", messageID: "m\($0)@t", blob: UInt8($0 % 200)) },
                            after: &sequence)
        let written = store.inner.entries("contacts.messages").count
        XCTAssertGreaterThanOrEqual(written, ContactsProjector.maxPending, "a part written before the batch ends")
        XCTAssertLessThan(written, messages)
        try projector.prepareFlush()
        try context.flush()
        XCTAssertEqual(store.inner.entries("contacts.messages").count, messages)
        XCTAssertEqual(try ContactsReader(Snapshot(store)).all(account: "acct").first { $0.address == "ann@friends.example" }?.count,
                       UInt64(messages))
    }
}
