import EventLog
import EventModel
import Foundation
import LMDB
import NativeCodecs
import TestSupport
import XCTest

final class IntegrityTests: EventLogTestCase {
    func testFlippedByteInARecordIsNamedByVerify() throws {
        let marker = "MARKER-\(UUID().uuidString)"
        do {
            let log = try openLog()
            var batch = (1...100).map { event(categorized($0)) }
            batch[49] = event(.folderRemoved(FolderRemoved(folder: marker)))
            try log.append(batch)
            XCTAssertTrue(try log.verify().isClean)
        }
        let file = dir.file("data.mdb")
        var data = try Data(contentsOf: URL(fileURLWithPath: file))
        guard let range = data.range(of: Data(marker.utf8)) else { return XCTFail("marker not found on disk") }
        data[range.lowerBound + 3] ^= 0x01
        try data.write(to: URL(fileURLWithPath: file))
        let log = try openLog()
        let report = try log.verify()
        XCTAssertFalse(report.isClean)
        XCTAssertEqual(report.firstBadSequence, 50)
        XCTAssertEqual(report.problems.map(\.sequence), [50], "only the damaged record is named: \(report.problems)")
    }

    func testFlippedHashByteIsNamed() throws {
        let id: EventID
        do {
            let log = try openLog()
            try log.append((1...20).map { event(categorized($0)) })
            id = try log.event(at: 7)!.envelope.id
        }
        let file = dir.file("data.mdb")
        var data = try Data(contentsOf: URL(fileURLWithPath: file))
        // The chain hash sits right before the event id in the record: flip its last byte.
        let idRange = data.range(of: Data(id.bytes))!
        data[idRange.lowerBound - 1] ^= 0x80 // last byte of the chain hash
        try data.write(to: URL(fileURLWithPath: file))
        let log = try openLog()
        XCTAssertEqual(try log.verify().firstBadSequence, 7)
    }

    /// A damaged head hash in `meta` fails an append, which appends nothing; the damage verify names stays the one it
    /// names. The append had chained from the bad hash: every record after it failed verify, and the head hash itself
    /// was no longer named.
    func testADamagedHeadHashFailsTheAppendAndAppendsNothing() throws {
        let log = try openLog()
        try log.append((1...20).map { event(categorized($0)) })
        let meta = try log.environment.openDatabase("meta")
        for damaged in [[UInt8](repeating: 0, count: 32), [UInt8](repeating: 7, count: 5)] {
            try log.environment.write { txn in try txn.put(meta, key: Array("head_hash".utf8), value: damaged) }
            for batch in [[event(categorized(21))], (21...1_100).map { event(categorized($0)) }] {
                XCTAssertThrowsError(try log.append(batch)) { error in
                    XCTAssertEqual(error as? EventLogError, .headHashMismatch(sequence: 20))
                    XCTAssertTrue("\(error)".contains("nothing was appended") && "\(error)".contains("restore the log from a backup"), "\(error)")
                }
            }
            XCTAssertEqual(try log.head().sequence, 20)
            let report = try log.verify()
            XCTAssertEqual(report.problems.map(\.message), ["the head hash in meta does not match the chain"])
        }
    }

    func testVerifyChecksTheIdIndex() throws {
        let log = try openLog()
        try log.append((1...10).map { event(categorized($0)) })
        // Damage the index through LMDB itself: point an id at the wrong sequence.
        let id = try log.event(at: 4)!.envelope.id
        let ids = try log.environment.openDatabase("ids")
        try log.environment.write { txn in
            try txn.put(ids, key: id.bytes, value: [0, 0, 0, 0, 0, 0, 0, 9])
        }
        let report = try log.verify()
        XCTAssertEqual(report.firstBadSequence, 4)
        XCTAssertTrue(report.problems[0].message.contains("id index"))
    }

    // The indexes are first checked as wholes (their entries' digests against the records'); only a log whose
    // digests differ is looked up record by record, to name what is wrong.
    func testACleanLogIsCheckedByDigestsWithoutLookingRecordsUp() throws {
        let log = try openLog()
        try log.append((1...50).map { event(categorized($0), stream: StreamName(rawValue: "s\($0 % 7)")) })
        let report = try log.verify()
        XCTAssertTrue(report.isClean, "\(report.problems)")
        XCTAssertFalse(report.indexesLookedUp)
        XCTAssertEqual(report.eventsChecked, 50)
    }

    func testTheIndexesAreDigestedAFewEntriesATransactionAlike() throws {
        let log = try openLog()
        try log.append((1...40).map { event(categorized($0), stream: StreamName(rawValue: "s\($0 % 3)")) })
        for chunk in [1, 3, 7, 40, 41] {
            log.indexWalkChunk = chunk
            let report = try log.verify()
            XCTAssertTrue(report.isClean, "chunks of \(chunk): \(report.problems)")
            XCTAssertFalse(report.indexesLookedUp, "chunks of \(chunk)")
        }
    }

    func testAStreamIndexEntryMovedToAnotherStreamIsNamed() throws {
        let log = try openLog()
        try log.append((1...30).map { event(categorized($0), stream: StreamName(rawValue: "s\($0 % 3)")) })
        // Record 7 is in stream s1: its entry moves to s2 (the index keeps as many entries as there are records).
        let streams = try log.environment.openDatabase("stream_events", flags: [.dupSort, .dupFixed])
        func seq(_ n: UInt64) -> [UInt8] { withUnsafeBytes(of: n.bigEndian) { Array($0) } }
        try log.environment.write { txn in
            XCTAssertTrue(try txn.delete(streams, key: Array("s1".utf8)))
            for n: UInt64 in stride(from: 1, through: 28, by: 3) where n != 7 {
                _ = try txn.put(streams, key: Array("s1".utf8), value: seq(n))
            }
            _ = try txn.put(streams, key: Array("s2".utf8), value: seq(7))
        }
        log.indexWalkChunk = 4
        let report = try log.verify()
        XCTAssertTrue(report.indexesLookedUp)
        XCTAssertEqual(report.problems.map(\.sequence), [7], "\(report.problems)")
        XCTAssertTrue(report.problems.first?.message.contains("missing from the stream index of 's1'") == true, "\(report.problems)")
    }

    func testAnIdIndexEntryForAnotherSequenceIsNamedWhateverTheOrder() throws {
        let log = try openLog()
        try log.append((1...20).map { event(categorized($0)) })
        // Two ids swap their sequences: the index holds the same sequences, each under the other's id.
        let a = try log.event(at: 3)!.envelope.id, b = try log.event(at: 15)!.envelope.id
        let ids = try log.environment.openDatabase("ids")
        try log.environment.write { txn in
            _ = try txn.put(ids, key: a.bytes, value: [0, 0, 0, 0, 0, 0, 0, 15])
            _ = try txn.put(ids, key: b.bytes, value: [0, 0, 0, 0, 0, 0, 0, 3])
        }
        let report = try log.verify()
        XCTAssertTrue(report.indexesLookedUp)
        XCTAssertEqual(report.problems.map(\.sequence), [3, 15], "\(report.problems)")
    }

    func testCorruptBlobIsReported() throws {
        let log = try openLog()
        let h = try log.putBlob(Array("hello blob".utf8))
        // The blob is number 1 of the numbered blobs: alter its content (same size, stored raw).
        let data = try log.environment.openDatabase("blob_data")
        try log.environment.write { txn in try txn.put(data, key: [0, 0, 0, 0, 0, 0, 0, 1], value: [0, 10] + Array("hellO blob".utf8)) }
        XCTAssertThrowsError(try log.blob(h)) { XCTAssertTrue("\($0)".contains("does not match its SHA-256"), "\($0)") }
        let report = try log.verify()
        XCTAssertFalse(report.isClean)
        XCTAssertEqual(report.problems.count, 1, "\(report.problems)")
        XCTAssertTrue(report.problems[0].message.contains("blob number 1") && report.problems[0].message.contains("altered"),
                      report.problems[0].message)
    }

    /// A damaged record's or blob's error says to run `mailstore verify` once, though the decoding or zstd error it
    /// wraps says so too.
    func testACorruptRecordOrBlobSaysToRunVerifyOnce() {
        let wrapped = [DecodeError.malformed("a bad length", at: 3).description, DecodeError.truncated(at: 9).description,
                       NativeCodecError.corruptCompressedData("Unknown frame descriptor").description, "content does not match its SHA-256"]
        for reason in wrapped {
            for error in [EventLogError.corruptBlob(hash: "4dbb", reason: reason), EventLogError.corruptRecord(sequence: 7, reason: reason)] {
                let text = "\(error)"
                XCTAssertEqual(text.components(separatedBy: "`mailstore verify`").count, 2, text)
                XCTAssertTrue(text.contains(reason.components(separatedBy: ";")[0]), text)
            }
        }
    }

    /// A stored blob that cannot be decoded (an unknown flag, a size that does not match, a dictionary that is not
    /// there) is named by its hash in the error, and the blobs beside it still read.
    func testUndecodableBlobIsNamedByItsHash() throws {
        let log = try openLog()
        let h = try log.putBlob(Array("hello blob".utf8))
        let other = try log.putBlob(Array("another blob".utf8))
        let data = try log.environment.openDatabase("blob_data")
        for stored: [UInt8] in [[9, 10] + Array("hello blob".utf8), [0, 11] + Array("hello blob".utf8), [2, 10, 7, 1, 2, 3]] {
            try log.environment.write { txn in try txn.put(data, key: [0, 0, 0, 0, 0, 0, 0, 1], value: stored) }
            XCTAssertThrowsError(try log.blob(h)) { XCTAssertTrue("\($0)".contains(h.hex), "\($0)") }
            XCTAssertEqual(try log.blob(other), Array("another blob".utf8))
        }
    }

    /// More bad blobs than a report keeps: the blobs are checked on a thread of their own and their report joins
    /// the walk's, within the same bound (the first ones kept, the rest counted as truncated).
    func testMoreBadBlobsThanTheReportKeepsAreCappedAndCounted() throws {
        let log = try openLog()
        let count = VerifyReport.maxProblems + 50
        for i in 1...count { _ = try log.putBlob(Array(String(format: "blob-%05d", i).utf8)) }
        let data = try log.environment.openDatabase("blob_data")
        try log.environment.write { txn in
            for i in 1...count {
                var key = [UInt8](repeating: 0, count: 8)
                for b in 0..<8 { key[b] = UInt8(truncatingIfNeeded: UInt64(i) >> (8 * (7 - UInt64(b)))) }
                try txn.put(data, key: key, value: [0, 10] + Array(String(format: "BLOB-%05d", i).utf8))
            }
        }
        let report = try log.verify()
        XCTAssertEqual(report.blobsChecked, UInt64(count))
        XCTAssertEqual(report.problems.count, VerifyReport.maxProblems)
        XCTAssertTrue(report.truncated)
        XCTAssertTrue(report.problems[0].message.contains("blob number 1 "), report.problems[0].message)
        XCTAssertEqual(report.eventsChecked, 0)
    }

    func testCorruptBlobOfTheOldLayoutIsReported() throws {
        let log = try openLog()
        let good = try log.prepareBlob(Array("hello blob".utf8))
        // A blob as format 2 stored it (keyed by its hash), then damaged.
        let blobs = try log.environment.openDatabase("blobs")
        try log.environment.write { txn in try txn.put(blobs, key: good.hash.bytes, value: [0, 10] + Array("hellO blob".utf8)) }
        XCTAssertThrowsError(try log.blob(good.hash)) { XCTAssertTrue("\($0)".contains("does not match its SHA-256"), "\($0)") }
        let report = try log.verify()
        XCTAssertEqual(report.problems.count, 1, "\(report.problems)")
        XCTAssertTrue(report.problems[0].message.contains("does not match its SHA-256"))
    }

    func testBlobIndexAndNumberedBlobsMustAgree() throws {
        let log = try openLog()
        let a = try log.putBlob(Array("first blob".utf8))
        _ = try log.putBlob(Array("second blob".utf8))
        XCTAssertTrue(try log.verify().isClean)
        // Point the first blob's hash at the second blob: reading it fails its hash check, verify names both
        // the numbered blob no hash maps to and the count.
        let keys = try log.environment.openDatabase("blob_keys")
        try log.environment.write { txn in try txn.put(keys, key: a.bytes, value: [0, 0, 0, 0, 0, 0, 0, 2]) }
        XCTAssertThrowsError(try log.blob(a))
        var report = try log.verify()
        XCTAssertTrue(report.problems.contains { $0.message.contains("blob number 1") }, "\(report.problems)")
        // An index entry naming a blob that is not there.
        let missing = try log.prepareBlob(Array("never stored".utf8))
        try log.environment.write { txn in try txn.put(keys, key: missing.hash.bytes, value: [0, 0, 0, 0, 0, 0, 0, 9]) }
        XCTAssertThrowsError(try log.blob(missing.hash)) { XCTAssertTrue("\($0)".contains("which is missing"), "\($0)") }
        report = try log.verify()
        XCTAssertTrue(report.problems.contains { $0.message.contains("3 entries for 2 numbered blobs") }, "\(report.problems)")
    }
}
