import EventModel
import Projections
import XCTest

/// A batch naming more contacts than `ContactsProjector.maxPending` writes the view's tables in parts, so the tables'
/// caches hold the records of at most that many contacts whatever the batch names (mail of 1,000 recipients each: a
/// batch of 2 MiB of payloads names ~55,000 addresses). The tables must be the same as those of the batch folded in
/// one go (the one-event-at-a-time fold after a failure does not write in parts) and as those of small batches.
final class ContactsMemoryBoundTests: XCTestCase {
    /// Mail to `recipients` distinct people each (named as the audit's mail was, so each has a word list of its own),
    /// copied to a few people whose names change from message to message (their old names' lists freeze them), some
    /// of it in Sent, from senders seen again.
    private func events(messages: Int, recipients: Int) -> [DomainEvent] {
        let blob = BlobHash(bytes: [UInt8](repeating: 1, count: 32))!
        var out: [DomainEvent] = [.folderDiscovered(FolderDiscovered(folder: "Sent", displayName: "Sent", role: .sent))]
        let names = ["ann lee", "anna lee", "bob", "zoe quinn", "élodie roux", nil]
        for i in 0..<messages {
            let to = (0..<recipients).map { j in
                EmailAddress(name: j % 3 == 0 ? nil : "Person\(i)x\(j) Name\(j)", email: "p\(i)x\(j)@d\(j % 50).example.com")
            }
            let cc = (0..<5).map { k in EmailAddress(name: names[(i + k) % names.count], email: "friend\(k)@x.org") }
            let sent = i % 4 == 1
            out.append(.emailReceived(EmailReceived(emailID: "e\(i)", folder: sent ? "Sent" : "INBOX", messageID: "m\(i)@t",
                subject: "s", from: [EmailAddress(name: sent ? "Me" : "Sender \(i % 3)", email: sent ? "me@home.org" : "s\(i % 3)@x.org")],
                to: to, cc: cc, date: Timestamp(microseconds: Int64(1_000 * (i % 7))), dateSource: .header, size: 1, blob: blob)))
        }
        return out
    }

    /// A projector folding into a store that counts its writes.
    private struct Fold {
        let store = CountingStore()
        let context: FoldContext
        let projector: ContactsProjector
        var sequence: UInt64 = 0

        /// A fold writing a part once `pendingLimit` contacts wait (`ContactsProjector.pendingLimit`).
        init(pendingLimit: Int = ContactsProjector.maxPending) {
            context = FoldContext(store: store)
            projector = ContactsProjector(context: context)
            projector.pendingLimit = pendingLimit
        }

        /// Applies `events` as one batch, without ending it.
        mutating func apply(_ events: some Sequence<DomainEvent>) throws {
            try projector.apply(events, after: &sequence)
        }

        /// Ends the batch as the views engine does: the deferred work, then every table's changes written.
        func end() throws {
            try projector.prepareFlush()
            try context.flush()
        }

        /// Every table's entries.
        var tables: [String: [([UInt8], [UInt8])]] {
            var out: [String: [([UInt8], [UInt8])]] = [:]
            for name in store.inner.tableNames { out[name] = store.inner.entries(name) }
            return out
        }
    }

    private func assertSame(_ a: [String: [([UInt8], [UInt8])]], _ b: [String: [([UInt8], [UInt8])]], _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Set(a.keys), Set(b.keys), what, file: file, line: line)
        for (name, entries) in a {
            let theirs = b[name] ?? []
            XCTAssertEqual(theirs.count, entries.count, "\(name): \(what)", file: file, line: line)
            XCTAssertTrue(zip(theirs, entries).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }, "\(name) differs: \(what)", file: file, line: line)
        }
    }

    /// The bound of the test below: a part written once 1,024 contacts wait (in production `ContactsProjector.maxPending`),
    /// so a batch of a few messages crosses it several times as one of tens of thousands of contacts crosses 8,192.
    private static let pendingLimit = 1_024

    func testABatchNamingMoreContactsThanTheBoundWritesItsTablesInParts() throws {
        // ~2.9 times the bound of distinct contacts in one batch.
        let limit = Self.pendingLimit
        let events = events(messages: 6, recipients: 500)
        var parts = Fold(pendingLimit: limit)
        try parts.apply(events)
        // Before the batch ends, the contacts of every full part are written: at most `maxPending` wait in the caches.
        let people = try XCTUnwrap(parts.tables["contacts.people"])
        let named = Set(events.flatMap { e -> [String] in
            guard case .emailReceived(let p) = e else { return [] }
            return (p.from + p.to + p.cc).map { $0.email.lowercased() }
        }).count
        XCTAssertGreaterThan(named, 2 * limit)
        XCTAssertGreaterThanOrEqual(people.count, named - limit, "contacts written before the batch ended")
        XCTAssertGreaterThan(parts.store.puts["contacts.prefix"] ?? 0, 2 * limit)
        XCTAssertGreaterThan(parts.store.puts["contacts.top"] ?? 0, 0)
        try parts.end()

        // Folded in one go (as after a failure, one event at a time: no part written before the batch's end).
        var whole = Fold(pendingLimit: limit)
        whole.context.writesInParts = false
        try whole.apply(events)
        XCTAssertEqual(whole.store.writes, 0, "nothing written before the batch ends")
        try whole.end()
        XCTAssertEqual(whole.tables["contacts.people"]?.count, named)
        assertSame(parts.tables, whole.tables, "in parts against in one go")

        // In small batches: one message each (its 500 recipients and 6 others), under the bound.
        var small = Fold(pendingLimit: limit)
        for start in stride(from: 0, to: events.count, by: 1) {
            try small.apply(events[start..<min(events.count, start + 1)])
            try small.end()
        }
        assertSame(parts.tables, small.tables, "in parts against batches of 1 event")
    }

    /// A batch within the bound writes nothing before it ends (the parts cost nothing to ordinary mail).
    func testABatchWithinTheBoundIsWrittenOnce() throws {
        let events = events(messages: 10, recipients: 500)
        var fold = Fold()
        try fold.apply(events)
        XCTAssertEqual(fold.store.writes, 0)
        try fold.end()
        XCTAssertGreaterThan(fold.store.puts["contacts.people"] ?? 0, 3_000)
        XCTAssertEqual(fold.store.puts["contacts.people"], fold.tables["contacts.people"]?.count, "each contact written once")
    }
}
