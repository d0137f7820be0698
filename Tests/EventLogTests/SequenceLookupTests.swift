import EventLog
import EventModel
import XCTest

/// `sequences(of:)` (an import's check of which messages it already has) unmaps the log's pages every 64
/// lookups when over the budget, inside its read transaction: every answer stays right across those releases.
final class SequenceLookupTests: EventLogTestCase {
    func testLookupsAcrossPageReleasesFindEveryIdAndOnlyThose() throws {
        let log = try openLog()
        let stored = (0..<1_000).map { i in event(categorized(i, padding: 600), id: EventID(digest: Array("stored \(i)".utf8))) }
        let outcomes = try log.append(stored)
        let absent = (0..<300).map { EventID(digest: Array("absent \($0)".utf8)) }
        var asked = stored.map(\.id) + absent
        asked.shuffle()
        asked.append(stored[17].id)                                  // asked twice
        let expected: [EventID: UInt64] = Dictionary(uniqueKeysWithValues: zip(stored.map(\.id), outcomes.map { o -> UInt64 in
            guard case .appended(let s) = o else { XCTFail("\(o)"); return 0 }
            return s
        }))
        // A budget of 0 releases at every check (every 64 lookups: 20 releases here).
        let found = try log.sequences(of: asked, budget: 0)
        XCTAssertEqual(found.count, asked.count)
        for (id, seq) in zip(asked, found) { XCTAssertEqual(seq, expected[id], "\(id)") }
        XCTAssertEqual(found.compactMap { $0 }.count, 1_001)
        XCTAssertEqual(try log.sequences(of: asked), found)
        XCTAssertEqual(try log.sequences(of: []), [])
    }

    /// `events(at:)` reads the events in the order asked, across read transactions, skips a sequence past the head,
    /// and stops when `body` says so.
    func testEventsAtSequencesComeInTheOrderAskedAcrossTransactions() throws {
        let log = try openLog()
        try log.append((0..<2_000).map { event(categorized($0)) })
        let asked: [UInt64] = Array(1...1_200) + [1_500, 3, 5_000, 1_999]
        var seen: [UInt64] = []
        try log.events(at: asked) { seen.append($0.envelope.sequence); return true }
        XCTAssertEqual(seen, Array(1...1_200) + [1_500, 3, 1_999])
        var first: [UInt64] = []
        try log.events(at: asked) { first.append($0.envelope.sequence); return first.count < 600 }
        XCTAssertEqual(first, Array(1...600))
        try log.events(at: []) { _ in XCTFail("nothing asked"); return true }
    }
}
