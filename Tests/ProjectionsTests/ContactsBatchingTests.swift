import CorpusGenerator
import EventModel
import Projections
import XCTest

/// The contacts view writes each contact's index entries and best-list offers once per batch (or at a name
/// change), with its last rank, instead of once per message. What it leaves must not depend on where batches
/// end: a replay folds in big batches, sync in small ones, and `verify --views` compares the two byte for byte.
final class ContactsBatchingTests: XCTestCase {
    /// Mail from a few hundred people, names changing often (several times within a batch), some mail in Sent
    /// (recipients the user wrote to), so the short prefixes' lists fill and hold stale entries.
    private func events(seed: UInt64, people: Int = 300, messages: Int = 1_500) -> [DomainEvent] {
        var gen = SplitMix64(seed: seed)
        let words = ["ann", "anna", "andrew", "bob", "bobby", "bea", "zoe", "zed", "zebulon", "élodie", "émile", "an", "b"]
        var out: [DomainEvent] = [.folderDiscovered(FolderDiscovered(folder: "Sent", displayName: "Sent", role: .sent))]
        for i in 0..<messages {
            func person() -> EmailAddress {
                let n = Int.random(in: 0..<people, using: &gen)
                let name = "\(words[Int.random(in: 0..<words.count, using: &gen)]) \(words[Int.random(in: 0..<words.count, using: &gen)])"
                return EmailAddress(name: Int.random(in: 0..<4, using: &gen) == 0 ? nil : name, email: "p\(n)@x\(n % 7).org")
            }
            let from = person(), to = person(), cc = person()
            let sent = Int.random(in: 0..<5, using: &gen) == 0
            out.append(.emailReceived(EmailReceived(emailID: "e\(i)", folder: sent ? "Sent" : "INBOX", messageID: "m\(i)@t", subject: "s",
                from: [sent ? EmailAddress(name: "Me", email: "me@home.org") : from], to: [to], cc: [cc],
                date: Timestamp(microseconds: Int64(Int.random(in: 0..<1_000_000, using: &gen))), dateSource: .header,
                size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)))
        }
        return out
    }

    /// Every contacts table of `events` folded in batches of `size` events, at most `pendingLimit` contacts (and changes of
    /// counts) waiting before a part is written (`ContactsProjector.pendingLimit`).
    private func tables(_ events: [DomainEvent], batch size: Int,
                        pendingLimit: Int = ContactsProjector.maxPending) throws -> [String: [([UInt8], [UInt8])]] {
        let harness = FoldHarness(types: [ContactsProjector.self])
        for f in harness.folds { (f.projector as? ContactsProjector)?.pendingLimit = pendingLimit }
        for start in stride(from: 0, to: events.count, by: size) {
            try harness.fold(Array(events[start..<min(events.count, start + size)]), account: "acc")
        }
        var out: [String: [([UInt8], [UInt8])]] = [:]
        for name in harness.store.tableNames { out[name] = harness.store.entries(name) }
        return out
    }

    func testTheTablesAreTheSameWhereverBatchesEnd() throws {
        // 102379 has two people who wrote, as often seen and as recent, with different counts of mail from them:
        // their ranks order neither way, which the best lists once left in offer order.
        var rng = SystemRandomNumberGenerator()
        for seed in [102_379] + (0..<2).map({ _ in UInt64.random(in: 0..<1_000_000, using: &rng) }) {
            let events = events(seed: seed)
            let whole = try tables(events, batch: events.count)
            XCTAssertEqual(Set(whole.keys), ["contacts.counts", "contacts.folders", "contacts.messages", "contacts.pairs", "contacts.people", "contacts.prefix",
                                             "contacts.top"], "seed \(seed)")
            for size in [1, 7, 250] {
                let other = try tables(events, batch: size)
                XCTAssertEqual(Set(other.keys), Set(whole.keys), "batches of \(size), seed \(seed)")
                for (name, entries) in whole {
                    let theirs = other[name] ?? []
                    XCTAssertEqual(theirs.count, entries.count, "\(name), batches of \(size), seed \(seed)")
                    XCTAssertTrue(zip(theirs, entries).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 },
                                  "\(name) differs, batches of \(size), seed \(seed)")
                }
            }
        }
    }

    /// Each prefix of 1 to 3 characters counts the index entries it starts (a token of a contact and its address),
    /// names changing included (an old name's words no longer counted); a count of 0 is no key.
    func testCountsAreTheIndexEntriesEachPrefixStarts() throws {
        let events = events(seed: 31)
        let harness = FoldHarness(types: [ContactsProjector.self])
        for start in stride(from: 0, to: events.count, by: 97) {
            try harness.fold(Array(events[start..<min(events.count, start + 97)]), account: "acc")
        }
        let reader = ContactsReader(harness.snapshot)
        var expected: [String: Int] = [:]
        for c in try reader.all(account: "acc") {
            for token in ContactsProjector.tokens(name: c.name, address: c.address) {
                for n in 1...ContactsProjector.countedPrefixLength where token.count >= n { expected[String(token.prefix(n)), default: 0] += 1 }
            }
        }
        XCTAssertGreaterThan(expected["a"] ?? 0, 100)
        for (start, n) in expected { XCTAssertEqual(try reader.entryCount(account: "acc", word: start), n, start) }
        XCTAssertEqual(try reader.entryCount(account: "acc", word: "annabel"), expected["ann"], "a longer word: its first 3")
        XCTAssertEqual(try reader.entryCount(account: "acc", word: "q"), 0)
        XCTAssertEqual(harness.store.entries("contacts.counts").count, expected.count, "no key for a count gone to 0")
    }

    /// A count's key is a prefix of at most 3 characters, but a character from mail may be any length (one letter and
    /// 2,000 combining marks): the key stays within a key part's bound.
    func testACountsKeyOfAHugeCharacterIsBounded() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let huge = "a" + String(repeating: "\u{301}", count: 2_000)
        try harness.fold([.emailReceived(EmailReceived(emailID: "e", folder: "INBOX", messageID: "m@t", subject: "s",
            from: [EmailAddress(name: "\(huge)\(huge) Bob", email: "bob@x.org")], to: [], cc: [],
            date: Timestamp(microseconds: 1), dateSource: .header, size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))],
            account: "acc")
        let keys = harness.store.entries("contacts.counts").map(\.0)
        XCTAssertFalse(keys.isEmpty)
        XCTAssertTrue(keys.allSatisfy { $0.count <= Key("acc").bytes.count + Key.maxPartBytes + 1 }, "\(keys.map(\.count))")
    }

    /// The most contacts and changes of counts that wait in the tests of parts below: a few hundred events cross it as
    /// a batch of tens of thousands crosses `ContactsProjector.maxPending`, and batches of `smallBatch` events stay under it.
    private static let pendingLimit = 512
    private static let smallBatch = 50

    /// More prefixes changed in one batch than may wait (`ContactsProjector.pendingLimit`): the counts are written in
    /// parts, the same as in small batches.
    func testABatchChangingMoreCountsThanMayWaitWritesThemInParts() throws {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var events: [DomainEvent] = []
        for i in 0..<1_500 {
            let start = String([letters[i % 36], letters[(i / 36) % 36], letters[(i / 1_296) % 36]])
            events.append(.emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s",
                from: [EmailAddress(name: nil, email: "\(start)@x.org")], to: [], cc: [],
                date: Timestamp(microseconds: Int64(i)), dateSource: .header, size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)))
        }
        let limit = Self.pendingLimit
        let whole = try tables(events, batch: events.count, pendingLimit: limit)
        // Over twice the bound: the one batch writes its counts in parts.
        XCTAssertGreaterThan(whole["contacts.counts"]?.count ?? 0, 2 * limit)
        // A small batch changes at most 3 counts an event (a token's prefixes of 1 to 3 characters): never in parts.
        XCTAssertLessThan(3 * Self.smallBatch, limit)
        let parts = try tables(events, batch: Self.smallBatch, pendingLimit: limit)
        XCTAssertEqual(parts["contacts.counts"]?.count, whole["contacts.counts"]?.count)
        XCTAssertTrue(zip(parts["contacts.counts"] ?? [], whole["contacts.counts"] ?? []).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
    }

    /// A batch naming more contacts than may wait at once (`ContactsProjector.pendingLimit`) writes them in parts:
    /// the same tables as small batches.
    func testABatchOfMoreContactsThanMayWaitWritesThemInParts() throws {
        let events = events(seed: 7, people: 4_000, messages: 600)
        let limit = Self.pendingLimit
        let whole = try tables(events, batch: events.count, pendingLimit: limit)
        XCTAssertGreaterThan(whole["contacts.people"]?.count ?? 0, 2 * limit)
        // A small batch names at most 3 contacts an event (From, To, Cc): never in parts.
        XCTAssertLessThan(3 * Self.smallBatch, limit)
        let parts = try tables(events, batch: Self.smallBatch, pendingLimit: limit)
        for (name, entries) in whole {
            let theirs = parts[name] ?? []
            XCTAssertEqual(theirs.count, entries.count, name)
            XCTAssertTrue(zip(theirs, entries).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }, "\(name) differs")
        }
    }
}
