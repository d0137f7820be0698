import EventModel
import Projections
import XCTest

/// The entries of a completion's first word come out best first (rank, then address bytes) whatever order they went in,
/// and `keep(where:)` drops, of those still to take, the ones it refuses.
final class RankedContactEntriesTests: XCTestCase {
    private func rank(_ sent: UInt64, _ count: UInt64, _ seen: Int64) -> ContactRank {
        ContactRank(sent: sent, count: count, lastSeen: Timestamp(microseconds: seen))
    }

    private func add(_ entries: inout RankedContactEntries, _ r: ContactRank, _ address: String) {
        Array(address.utf8).withUnsafeBytes { entries.append(rank: r, address: $0) }
    }

    private func drain(_ entries: inout RankedContactEntries) -> [String] {
        var out: [String] = []
        while let e = entries.next() { out.append(String(decoding: e.address, as: UTF8.self)) }
        return out
    }

    func testEntriesComeOutBestFirst() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: UInt64) -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state % n
        }
        var entries = RankedContactEntries()
        var all: [(ContactRank, String)] = []
        for i in 0..<2_000 {
            // Few distinct ranks, so many ties are ordered by the address bytes; some addresses come twice (two tokens).
            let r = rank(next(2), next(4), Int64(next(3)))
            let address = "a\(next(500))-\(i % 3 == 0 ? "x" : "")@x.org"
            if all.contains(where: { $0.1 == address }) { continue }
            all.append((r, address))
            add(&entries, r, address)
            if i % 7 == 0 { all.append((r, address)); add(&entries, r, address) }
        }
        XCTAssertEqual(entries.count, all.count)
        let expected = all.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && Array($0.1.utf8).lexicographicallyPrecedes(Array($1.1.utf8))) }.map(\.1)
        XCTAssertEqual(drain(&entries), expected)
        XCTAssertNil(entries.next())
        XCTAssertEqual(entries.remaining, 0)
    }

    func testKeepDropsOnlyEntriesStillToTake() {
        var entries = RankedContactEntries()
        for (i, address) in ["b@x", "a@x", "d@x", "c@x", "e@x"].enumerated() { add(&entries, rank(0, UInt64(10 - i), 0), address) }
        // Best first: the most frequent (b, then a, ...).
        XCTAssertEqual(entries.next()?.address.elementsEqual("b@x".utf8), true)
        entries.keep { !$0.elementsEqual("d@x".utf8) && !$0.elementsEqual("b@x".utf8) }
        XCTAssertEqual(entries.remaining, 3)
        XCTAssertEqual(drain(&entries), ["a@x", "c@x", "e@x"])
    }

    func testKeepBeforeAnyIsTaken() {
        var entries = RankedContactEntries()
        add(&entries, rank(0, 1, 5), "late@x")
        add(&entries, rank(1, 1, 0), "wrote@x")
        add(&entries, rank(0, 1, 9), "recent@x")
        entries.keep { !$0.elementsEqual("late@x".utf8) }
        XCTAssertEqual(drain(&entries), ["wrote@x", "recent@x"], "who wrote first, then the most recent")
    }
}
