import EventLog
import EventModel
import Foundation
import LMDB
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

    func testCorruptBlobIsReported() throws {
        let log = try openLog()
        let h = try log.putBlob(Array("hello blob".utf8))
        let blobs = try log.environment.openDatabase("blobs")
        try log.environment.write { txn in try txn.put(blobs, key: h.bytes, value: [0, 10] + Array("hellO blob".utf8)) }
        XCTAssertThrowsError(try log.blob(h))
        let report = try log.verify()
        XCTAssertFalse(report.isClean)
        XCTAssertTrue(report.problems[0].message.contains("does not match its SHA-256"))
    }
}
