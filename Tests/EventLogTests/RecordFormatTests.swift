import EventLog
import EventModel
import LMDB
import NativeCodecs
import TestSupport
import XCTest

/// Records of format 1 (written before 2026-11-28: the chain hash over the whole record) and of format 2 (the
/// chain hash over the record's digest) in one log: both read, both verify, and each kind of damage is named.
final class RecordFormatTests: EventLogTestCase {
    /// SHA-256(previous ‖ sequence ‖ record bytes 0..<2 ‖ record bytes 34...): format 1's chain hash, written
    /// out here apart from the log's code so the old rule stays pinned.
    private func formatOneHash(previous: [UInt8], sequence: UInt64, record: [UInt8]) throws -> [UInt8] {
        let h = try SHA256Hasher()
        h.reset()
        previous.withUnsafeBytes { h.update($0) }
        withUnsafeBytes(of: sequence.bigEndian) { h.update($0) }
        record[0..<2].withUnsafeBytes { h.update($0) }
        record[34...].withUnsafeBytes { h.update($0) }
        return h.finish()
    }

    private func sequenceKey(_ seq: UInt64) -> [UInt8] { withUnsafeBytes(of: seq.bigEndian) { Array($0) } }

    /// Rewrites the log's records 1...n as a build before format 2 wrote them: format byte 1, each chain hash by
    /// the old rule from the zero hash, and the head hash the last of them.
    private func rewriteAsFormatOne(_ log: EventLog, through n: UInt64) throws {
        let events = try log.environment.openDatabase("events")
        let meta = try log.environment.openDatabase("meta")
        try log.environment.write { txn in
            var previous = [UInt8](repeating: 0, count: 32)
            for seq in 1...n {
                let key = sequenceKey(seq)
                guard var record = try txn.getBytes(events, key: key) else { return XCTFail("no record \(seq)") }
                XCTAssertEqual(record[0], 2, "this build writes format 2")
                record[0] = 1
                let hash = try formatOneHash(previous: previous, sequence: seq, record: record)
                record.replaceSubrange(2..<34, with: hash)
                try txn.put(events, key: key, value: record)
                previous = hash
            }
            try txn.put(meta, key: Array("head_hash".utf8), value: previous)
        }
    }

    private func formatByte(_ log: EventLog, _ seq: UInt64) throws -> UInt8? {
        let events = try log.environment.openDatabase("events")
        return try log.environment.read { txn in try txn.getBytes(events, key: sequenceKey(seq))?.first }
    }

    func testALogOfFormatOneRecordsReadsVerifiesAndGoesOnInFormatTwo() throws {
        let log = try openLog()
        let old = (1...10).map { event(categorized($0)) }
        try log.append(old)
        try rewriteAsFormatOne(log, through: 10)
        XCTAssertTrue(try log.verify().isClean, "format 1 records verify by their own rule")
        // Appends go on from the old head: a small batch and a big one (encoded on two threads).
        try log.append((11...20).map { event(categorized($0)) })
        try log.append((21...2_600).map { event(categorized($0)) })
        XCTAssertEqual(try formatByte(log, 10), 1)
        XCTAssertEqual(try formatByte(log, 11), 2)
        XCTAssertEqual(try formatByte(log, 2_600), 2)
        let report = try log.verify()
        XCTAssertTrue(report.isClean, "\(report.problems)")
        XCTAssertEqual(report.eventsChecked, 2_600)
        let read = try all(log)
        XCTAssertEqual(read.count, 2_600)
        XCTAssertEqual(try read[4].decode(), categorized(5))
        XCTAssertEqual(try read[14].decode(), categorized(15))
        XCTAssertEqual(read[0].envelope.id, old[0].id)
    }

    func testChangingARecordsFormatByteBreaksTheChainEitherWay() throws {
        let log = try openLog()
        try log.append((1...10).map { event(categorized($0)) })
        try rewriteAsFormatOne(log, through: 10)
        try log.append((11...20).map { event(categorized($0)) })
        let events = try log.environment.openDatabase("events")
        try log.environment.write { txn in
            for (seq, to) in [(UInt64(4), UInt8(2)), (UInt64(15), UInt8(1))] {
                var record = try XCTUnwrap(try txn.getBytes(events, key: sequenceKey(seq)))
                record[0] = to
                try txn.put(events, key: sequenceKey(seq), value: record)
            }
        }
        let report = try log.verify()
        XCTAssertEqual(report.problems.map(\.sequence), [4, 15], "\(report.problems)")
    }

    func testARecordOfAnUnknownFormatIsNamedNotDecoded() throws {
        let log = try openLog()
        try log.append((1...5).map { event(categorized($0)) })
        let events = try log.environment.openDatabase("events")
        try log.environment.write { txn in
            var record = try XCTUnwrap(try txn.getBytes(events, key: sequenceKey(3)))
            record[0] = 3
            try txn.put(events, key: sequenceKey(3), value: record)
        }
        let report = try log.verify()
        XCTAssertEqual(report.firstBadSequence, 3)
        XCTAssertTrue(report.problems.contains { $0.message.contains("unknown record format 3") }, "\(report.problems)")
    }
}
