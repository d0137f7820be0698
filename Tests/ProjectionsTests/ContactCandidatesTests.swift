import EventModel
import Projections
import XCTest

/// A long prefix's completion keeps the best contacts of a pass over thousands of index entries: whatever order
/// the entries come in, it holds the best `limit` by rank (then address), each address once.
final class ContactCandidatesTests: XCTestCase {
    private typealias Offer = (rank: ContactRank, address: [UInt8])

    private func rank(_ count: UInt64, sent: UInt64 = 0, seen: Int64 = 0) -> ContactRank {
        ContactRank(sent: sent, count: count, lastSeen: Timestamp(microseconds: 1_700_000_000_000_000 + seen))
    }

    /// The best `limit` of `offers` by a plain sort: each address once (the same address comes with the same rank).
    private func expected(_ offers: [Offer], limit: Int) -> [Offer] {
        var seen = Set<[UInt8]>()
        let unique = offers.filter { seen.insert($0.address).inserted }
        return Array(unique.sorted { a, b in
            a.rank < b.rank || (!(b.rank < a.rank) && a.address.lexicographicallyPrecedes(b.address))
        }.prefix(limit))
    }

    private func kept(_ offers: [Offer], limit: Int) -> [Offer] {
        var best = ContactCandidates(limit: limit)
        for o in offers { o.address.withUnsafeBytes { best.offer(rank: o.rank, address: $0) } }
        return best.entries.map { ($0.rank, $0.address) }
    }

    private func assertSame(_ a: [Offer], _ b: [Offer], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.map(\.address), b.map(\.address), file: file, line: line)
        XCTAssertEqual(a.map(\.rank), b.map(\.rank), file: file, line: line)
    }

    func testEntriesInRisingRankEachPushOutTheWorst() {
        // Every offer is better than all before it: each enters a full list (the pass where entries reuse storage).
        let offers: [Offer] = (0..<2_000).map { (rank(UInt64($0)), Array("person\($0)@example.org".utf8)) }
        let best = kept(offers, limit: 10)
        assertSame(best, expected(offers, limit: 10))
        XCTAssertEqual(best.first.map { String(decoding: $0.address, as: UTF8.self) }, "person1999@example.org")
    }

    func testAnyOrderWithRepeatsAndTies() {
        var generator = SystemRandomNumberGenerator()
        for limit in [1, 3, 10, 25] {
            for _ in 0..<20 {
                var offers: [Offer] = []
                for _ in 0..<400 {
                    let n = Int.random(in: 0..<150, using: &generator)
                    // The rank follows the address (one contact, one rank); ties on count broken by the time and
                    // then by the address.
                    let r = rank(UInt64(n % 7), sent: UInt64(n % 3 == 0 ? 1 : 0), seen: Int64(n % 5))
                    offers.append((r, Array("p\(n)@x".utf8)))
                }
                assertSame(kept(offers, limit: limit), expected(offers, limit: limit))
            }
        }
    }

    func testLongerAddressesTakeTheStorageOfShorterOnes() {
        let offers: [Offer] = (0..<50).map { i in (rank(UInt64(i)), Array(String(repeating: "a", count: 1 + (i * 37) % 300).utf8) + [UInt8(i)]) }
        assertSame(kept(offers, limit: 4), expected(offers, limit: 4))
    }

    func testALimitPastTheCapKeepsAtMostTheCap() throws {
        // A caller's `--limit` of Int.max: the completion is capped at `ContactsReader.maxLimit`, and nothing is
        // reserved for the limit asked.
        let harness = FoldHarness(types: [ContactsProjector.self])
        let senders = (0..<(ContactsReader.maxLimit + 200)).map { i in
            DomainEvent.emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s",
                from: [EmailAddress(name: nil, email: "person\(i)@example.org")], date: Timestamp(microseconds: Int64(i)),
                dateSource: .header, size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
        }
        try harness.fold(senders, account: "acc")
        let reader = ContactsReader(harness.snapshot)
        XCTAssertEqual(try reader.complete(account: "acc", prefix: "person", limit: .max).count, ContactsReader.maxLimit)
        XCTAssertEqual(try reader.scanComplete(account: "acc", needle: Array("person".utf8), limit: .max).count, ContactsReader.maxLimit)
    }
}
