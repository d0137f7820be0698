import EventLog
import EventModel
import Foundation
import LMDB
import TestSupport
import XCTest

/// A log whose records are not the gap-free run of sequences it should be (what a damaged page of its file gives):
/// every walk stops with an error naming the damage, none loops over the same records or skips events without a word.
final class DamagedOrderTests: EventLogTestCase {
    /// A log of 10 events with `damage` done to its records' database.
    func damagedLog(_ damage: (borrowing Transaction, Database) throws -> Void) throws -> EventLog {
        let log = try openLog()
        try log.append((1...10).map { event(categorized($0)) })
        let events = try log.environment.openDatabase("events")
        try log.environment.write { txn in try damage(txn, events) }
        return log
    }

    func assertDamaged(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard case .corruptRecord(_, let reason)? = error as? EventLogError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertTrue(reason.contains("the log file is damaged"), reason, file: file, line: line)
        }
    }

    /// A 9-byte key after sequence 5 reads as sequence 5 again (what a damaged page's key can be): every walk
    /// stops there with the damage named, after handing on each record before it once.
    func testAKeyThatIsNotTheNextSequenceStopsEveryWalk() throws {
        let log = try damagedLog { txn, events in _ = try txn.put(events, key: [0, 0, 0, 0, 0, 0, 0, 5, 0], value: [1, 2, 3]) }
        var seen: [UInt64] = []
        assertDamaged { try log.scan { seen.append($0.envelope.sequence); return true } }
        XCTAssertEqual(seen, [], "a chunk is checked before it is handed on")
        assertDamaged { try log.scan(chunkSize: 2) { seen.append($0.envelope.sequence); return true } }
        XCTAssertEqual(seen, [1, 2, 3, 4], "the chunks before the damage are handed on, each once")
        var decoded = 0
        assertDamaged { try log.scanDecoded { _, _ in decoded += 1; return true } }
        XCTAssertEqual(decoded, 5)
        let report = try log.verify(checkBlobs: false)
        XCTAssertFalse(report.isClean)
        XCTAssertTrue(report.problems.contains { $0.message.contains("key is 9 bytes") }, "\(report.problems)")
    }

    /// A record gone from the middle: the scan said nothing and handed on 9 events.
    func testAMissingRecordIsAnErrorNotAGap() throws {
        let log = try damagedLog { txn, events in _ = try txn.delete(events, key: [0, 0, 0, 0, 0, 0, 0, 5]) }
        var seen: [UInt64] = []
        assertDamaged { try log.scan(chunkSize: 2) { seen.append($0.envelope.sequence); return true } }
        XCTAssertEqual(seen, [1, 2, 3, 4])
        var decoded = 0
        assertDamaged { try log.scanDecoded { _, _ in decoded += 1; return true } }
        XCTAssertEqual(decoded, 4)
        // A scan that stops before the damage has nothing to say.
        var first = 0
        try log.scanDecoded { _, _ in first += 1; return first < 3 }
        XCTAssertEqual(first, 3)
        XCTAssertEqual(try log.verify(checkBlobs: false).firstBadSequence, 5)
    }

    /// A chunk also ends at `scanChunkBytes` of payloads: events of 1.5 MB each are handed on three at a time (a chunk
    /// of 512 of them had held 768 MB), so the three before a missing record are seen before the scan stops there.
    func testAChunkEndsAtItsBytesAsWellAsItsCount() throws {
        let log = try openLog()
        let big = 1_500_000
        XCTAssertGreaterThan(3 * big, EventLog.scanChunkBytes)
        XCTAssertLessThan(2 * big, EventLog.scanChunkBytes)
        try log.append((1...6).map { event(categorized($0, padding: big)) })
        let events = try log.environment.openDatabase("events")
        try log.environment.write { txn in _ = try txn.delete(events, key: [0, 0, 0, 0, 0, 0, 0, 5]) }
        var seen: [UInt64] = []
        assertDamaged { try log.scan { seen.append($0.envelope.sequence); return true } }
        XCTAssertEqual(seen, [1, 2, 3], "the first chunk ended at its bytes and was handed on")
        var streamSeen: [UInt64] = []
        XCTAssertThrowsError(try log.scan(filter: ScanFilter(stream: "s")) { streamSeen.append($0.envelope.sequence); return true })
        XCTAssertEqual(streamSeen, [1, 2, 3], "a stream's scan too")
    }
}
