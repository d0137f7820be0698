import EventLog
import EventModel
import Foundation
import XCTest

/// `startOfLast` (the newest few events that pass a filter) and `firstSequence(recordedAtOrAfter:)` over logs longer
/// than one backward read transaction visits.
final class TailTests: EventLogTestCase {
    /// 20,000 events in one stream but for two folder removals (sequences 5 and 19,000) in a stream of their own:
    /// the walk back crosses read transactions, by the log and by the stream index alike.
    func testTheNewestFewAreFoundAcrossReadTransactions() throws {
        let log = try openLog()
        XCTAssertEqual(try log.startOfLast(3, from: 1, through: 0, filter: .all), 1, "an empty log")
        var batch = (1...20_000).map { event(categorized($0)) }
        for i in [4, 18_999] { batch[i] = event(.folderRemoved(FolderRemoved(folder: "f\(i)")), stream: "rare") }
        try log.append(batch)
        XCTAssertGreaterThan(20_000, 2 * EventLog.tailVisitsPerChunk)
        let rare = ScanFilter(types: [.folderRemoved])
        XCTAssertEqual(try log.startOfLast(1, from: 1, through: 20_000, filter: rare), 19_000)
        XCTAssertEqual(try log.startOfLast(2, from: 1, through: 20_000, filter: rare), 5)
        XCTAssertEqual(try log.startOfLast(3, from: 1, through: 20_000, filter: rare), 1, "fewer than asked: from the start")
        XCTAssertEqual(try log.startOfLast(1, from: 1, through: 18_999, filter: rare), 5, "not past `through`")
        XCTAssertEqual(try log.startOfLast(1, from: 6, through: 18_999, filter: rare), 6, "not before `from`")
        XCTAssertEqual(try log.startOfLast(10_000, from: 1, through: 20_000, filter: .all), 10_001)
        XCTAssertEqual(try log.startOfLast(0, from: 1, through: 20_000, filter: .all), 20_001)
        let stream = ScanFilter(stream: "s")
        XCTAssertEqual(try log.startOfLast(19_998, from: 1, through: 20_000, filter: stream), 1)
        XCTAssertEqual(try log.startOfLast(19_997, from: 1, through: 20_000, filter: stream), 2)
        XCTAssertEqual(try log.startOfLast(9_000, from: 1, through: 20_000, filter: stream), 11_000, "19,000 is not in it")
        XCTAssertEqual(try log.startOfLast(1, from: 1, through: 18_999, filter: ScanFilter(stream: "rare")), 5)
        XCTAssertEqual(try log.startOfLast(1, from: 1, through: 20_000, filter: ScanFilter(stream: "rare")), 19_000)
        XCTAssertEqual(try log.startOfLast(1, from: 1, through: 20_000, filter: ScanFilter(stream: "none")), 1)
        XCTAssertEqual(try log.startOfLast(1, from: 1, through: 20_000, filter: ScanFilter(account: "other")), 1)
    }

    func testTheFirstSequenceAtATimeIsFoundByItsRecordedTime() throws {
        let log = try openLog()
        XCTAssertEqual(try log.firstSequence(recordedAtOrAfter: Timestamp(microseconds: 0)), 1, "an empty log")
        for (n, at) in [(3, 1_000), (4, 2_000), (2, 5_000)] {
            log.clock = { Timestamp(microseconds: Int64(at)) }
            try log.append((0..<n).map { event(categorized($0)) })
        }
        func first(_ us: Int64) throws -> UInt64 { try log.firstSequence(recordedAtOrAfter: Timestamp(microseconds: us)) }
        XCTAssertEqual(try first(0), 1)
        XCTAssertEqual(try first(1_000), 1)
        XCTAssertEqual(try first(1_001), 4)
        XCTAssertEqual(try first(2_000), 4)
        XCTAssertEqual(try first(4_999), 8)
        XCTAssertEqual(try first(5_001), 10, "none: the head's + 1")
    }
}
