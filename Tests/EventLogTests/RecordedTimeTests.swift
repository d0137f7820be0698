import EventLog
import EventModel
import Foundation
import XCTest

/// Recorded times never go back along the log, whatever the clock does: a time names one point in it.
final class RecordedTimeTests: EventLogTestCase {
    /// A clock stepped back an hour records the last record's time instead, in small batches and in big ones (the
    /// pipelined encoder), and the chain over the records whose time was raised verifies.
    func testAClockSteppedBackRecordsTheLastTimeAgain() throws {
        let log = try openLog()
        let start = Timestamp(microseconds: 1_800_000_000_000_000)
        log.clock = { start }
        try log.append((1...10).map { event(categorized($0)) })
        log.clock = { Timestamp(microseconds: start.microseconds - 3_600_000_000) }
        try log.append(event(categorized(11)))
        try log.append((12...1_500).map { event(categorized($0)) })
        XCTAssertEqual(try log.event(at: 11)?.envelope.recordedAt, start, "a single append")
        XCTAssertEqual(try log.event(at: 1_500)?.envelope.recordedAt, start, "a pipelined batch")
        let later = Timestamp(microseconds: start.microseconds + 1_000_000)
        log.clock = { later }
        try log.append(event(categorized(1_501)))
        XCTAssertEqual(try log.event(at: 1_501)?.envelope.recordedAt, later, "a clock ahead again records its time")
        var last = Timestamp(microseconds: 0)
        try log.scan { ev in
            XCTAssertGreaterThanOrEqual(ev.envelope.recordedAt, last, "sequence \(ev.envelope.sequence)")
            last = ev.envelope.recordedAt
            return true
        }
        let report = try log.verify()
        XCTAssertTrue(report.isClean, "\(report.problems)")
        XCTAssertEqual(report.eventsChecked, 1_501)
        XCTAssertEqual(report.recordedTimesBack, 0)
        XCTAssertNil(report.firstRecordedTimeBack)
    }

    /// A log an older build wrote while its clock stepped back verifies clean, and verify counts the steps back.
    func testVerifyCountsTheTimesAnOlderBuildRecordedGoingBack() throws {
        let log = try openLog()
        log.keepsRecordedTimesInOrder = false
        for (n, at) in [(3, 5_000), (2, 1_000), (2, 3_000), (1, 2_000)] {
            log.clock = { Timestamp(microseconds: Int64(at)) }
            try log.append((0..<n).map { event(categorized($0)) })
        }
        let report = try log.verify()
        XCTAssertTrue(report.isClean, "\(report.problems)")
        XCTAssertEqual(report.recordedTimesBack, 2, "at sequences 4 and 8")
        XCTAssertEqual(report.firstRecordedTimeBack, 4)
    }

    /// A recorded time at the far ends of its 64 bits (a flipped top bit of a damaged record) is compared with the
    /// machine's clock without trapping: verify reports, it does not crash (the subtraction overflowed).
    func testVerifyTakesRecordedTimesAtTheEndsOfTheirRange() throws {
        let log = try openLog()
        log.keepsRecordedTimesInOrder = false
        for at in [Int64.min + 1_000, Int64.max - 1_000, 0] {
            log.clock = { Timestamp(microseconds: at) }
            try log.append([event(categorized(0))])
        }
        let report = try log.verify()
        XCTAssertTrue(report.isClean, "\(report.problems)")
        XCTAssertEqual(report.recordedTimesAhead, 1, "the one past the clock, not the one before")
    }
}
