import EventLog
import EventModel
import Foundation
import LMDB
import TestSupport
import XCTest

/// Blobs are numbered and appended (format 3); blobs a format 2 store keyed by hash stay readable there.
final class BlobLayoutTests: EventLogTestCase {
    /// The numbers the blob index holds, by hash.
    private func numbers(_ log: EventLog, _ hashes: [BlobHash]) throws -> [UInt64?] {
        let keys = try log.environment.openDatabase("blob_keys")
        return try log.environment.read { txn in
            try hashes.map { h in
                try h.bytes.withUnsafeBytes { try txn.get(keys, key: $0) }.map { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
            }
        }
    }

    private func entries(_ log: EventLog, _ name: String) throws -> Int {
        let db = try log.environment.openDatabase(name)
        return try log.environment.read { txn in try txn.stat(db).entries }
    }

    func testBlobsAreNumberedInArrivalOrderAndStoredOnce() throws {
        let log = try openLog()
        let texts = ["x", "y", "z", "w"].map { name in Array("Subject: \(name)\r\n\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 3_000) + Array(name.utf8) }
        let blobs = try texts.map { try log.prepareBlob($0) }
        let (x, y, z, w) = (blobs[0], blobs[1], blobs[2], blobs[3])
        try log.append([event(categorized(1))], blobs: [x, y])
        try log.append([event(categorized(2))], blobs: [y, z, x, z])
        try log.append([], blobs: [w])
        XCTAssertEqual(try numbers(log, [x.hash, y.hash, z.hash, w.hash]), [1, 2, 3, 4])
        XCTAssertEqual(try entries(log, "blob_data"), 4)
        XCTAssertEqual(try entries(log, "blobs"), 0, "nothing is written in the old layout")
        for (text, blob) in zip(texts, blobs) { XCTAssertEqual(try log.blob(blob.hash), text) }
        XCTAssertTrue(try log.hasBlob(w.hash))
        let report = try log.verify()
        XCTAssertTrue(report.isClean, "\(report.problems)")
        XCTAssertEqual(report.blobsChecked, 4)
        XCTAssertEqual(try log.stats().blobs, 4)
    }

    func testAFailedAppendStoresNoBlobAndTakesNoNumber() throws {
        let log = try openLog()
        let a = try log.prepareBlob(Array("first".utf8)), b = try log.prepareBlob(Array("second".utf8))
        let stream: StreamName = "guarded"
        XCTAssertThrowsError(try log.append([event(categorized(1), stream: stream, expected: .exactly(5))], blobs: [a]))
        XCTAssertFalse(try log.hasBlob(a.hash))
        try log.append([], blobs: [b, a])
        XCTAssertEqual(try numbers(log, [b.hash, a.hash]), [1, 2])
        XCTAssertTrue(try log.verify().isClean)
    }

    func testADamagedLastBlobNumberFailsTheAppendAndStoresNothing() throws {
        let log = try openLog()
        let data = try log.environment.openDatabase("blob_data")
        let first = try log.prepareBlob(Array("first".utf8))
        for damaged: [UInt8] in [[0xFF, 0xFF, 0xFF], [UInt8](repeating: 0xFF, count: 8)] {
            try log.environment.write { txn in try txn.clear(data) }
            try log.environment.write { txn in try txn.put(data, key: damaged, value: [0, 1, 0x41]) }
            XCTAssertThrowsError(try log.append([event(categorized(1))], blobs: [first])) {
                XCTAssertTrue("\($0)".contains("blob_data") && "\($0)".contains("restore"), "\($0)")
            }
            XCTAssertFalse(try log.hasBlob(first.hash))
            XCTAssertEqual(try log.head().sequence, 0, "the batch's events were not appended either")
        }
    }

    func testFormat2StoreKeepsItsBlobsReadableAndIsUpgraded() throws {
        let store = StoreDirectory(path: dir.file("store"))
        try store.create()
        let old = Array("From: old@example.com\r\nSubject: stored by format 2\r\n\r\nbody\r\n".utf8)
        let new = Array("From: new@example.com\r\nSubject: stored by format 3\r\n\r\nbody\r\n".utf8)
        // A log as format 2 made it: no numbered blobs, the blob keyed by its hash in `blobs`.
        let scratch = TemporaryDirectory("scratch")
        let oldBlob = try EventLog(path: scratch.path).prepareBlob(old)
        do {
            let env = try Environment(path: store.logPath)
            let dbs = try env.openDatabases(["events", "ids", "blobs", "meta"], flags: .create)
            _ = try env.openDatabases(["stream_events"], flags: [.create, .dupSort, .dupFixed])
            // Stored raw (flag 0), its size a one-byte varint.
            XCTAssertLessThan(old.count, 128)
            try env.write { txn in try txn.put(dbs["blobs"]!, key: oldBlob.hash.bytes, value: [0, UInt8(old.count)] + old) }
        }
        try "mailstore-store-format 2\n".write(toFile: store.formatFile, atomically: true, encoding: .utf8)

        var readOnly = Environment.Options()
        readOnly.readOnly = true
        do {
            let reader = try EventLog(store: store, options: readOnly)
            XCTAssertEqual(try reader.blob(oldBlob.hash), old)
            XCTAssertTrue(try reader.verify().isClean)
            XCTAssertEqual(try store.checkFormat(), 2, "a read-only open changes nothing")
        }

        let log = try EventLog(store: store)
        XCTAssertEqual(try store.checkFormat(), StoreDirectory.formatVersion)
        XCTAssertEqual(try log.putBlob(old), oldBlob.hash)
        XCTAssertEqual(try entries(log, "blob_data"), 0, "a blob of the old layout is not stored again")
        let newHash = try log.putBlob(new)
        XCTAssertEqual(try numbers(log, [oldBlob.hash, newHash]), [nil, 1])
        XCTAssertEqual(try log.blob(oldBlob.hash), old)
        XCTAssertEqual(try log.blob(newHash), new)
        let report = try log.verify()
        XCTAssertTrue(report.isClean, "\(report.problems)")
        XCTAssertEqual(report.blobsChecked, 2)
        XCTAssertEqual(try log.stats().blobs, 2)
    }
}
