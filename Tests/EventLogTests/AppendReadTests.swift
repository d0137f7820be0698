import EventLog
import EventModel
import LMDB
import XCTest

final class AppendReadTests: EventLogTestCase {
    func testEveryEventTypeRoundTripsThroughTheLog() throws {
        let log = try openLog()
        let batch = DomainEvent.examples.enumerated().map { i, e in
            NewEvent(event: e, account: "work", stream: StreamName(rawValue: "stream-\(i)"), occurredAt: Timestamp(microseconds: Int64(i)),
                     causationID: i % 2 == 0 ? EventID.generate() : nil, correlationID: EventID.generate(), actor: .user)
        }
        let outcomes = try log.append(batch)
        XCTAssertEqual(outcomes, (1...UInt64(batch.count)).map { .appended($0) })
        let read = try all(log)
        XCTAssertEqual(read.count, batch.count)
        for (new, stored) in zip(batch, read) {
            XCTAssertEqual(try stored.decode(), new.event)
            XCTAssertEqual(stored.envelope.id, new.id)
            XCTAssertEqual(stored.envelope.type, new.event.type)
            XCTAssertEqual(stored.envelope.account, "work")
            XCTAssertEqual(stored.envelope.stream, new.stream.rawValue)
            XCTAssertEqual(stored.envelope.causationID, new.causationID)
            XCTAssertEqual(stored.envelope.correlationID, new.correlationID)
            XCTAssertEqual(stored.envelope.occurredAt, new.occurredAt)
            XCTAssertEqual(stored.envelope.actor, .user)
            XCTAssertEqual(try log.event(at: stored.envelope.sequence), stored)
        }
        XCTAssertTrue(try log.verify().isClean)
    }

    func testLargePayloadsAreCompressedAndReadBack() throws {
        let log = try openLog()
        let big = categorized(1, padding: 5000)
        try log.append(event(big))
        let stats = try log.stats()
        XCTAssertLessThan(stats.storedPayloadBytes, stats.payloadBytes / 4, "a repetitive 5 KB payload compresses")
        XCTAssertEqual(try log.event(at: 1)?.decode(), big)
    }

    func testIdempotentReappendReturnsTheExistingSequence() throws {
        let log = try openLog()
        let id = EventID.generate()
        XCTAssertEqual(try log.append(event(categorized(1), id: id)), .appended(1))
        XCTAssertEqual(try log.append(event(categorized(2))), .appended(2))
        XCTAssertEqual(try log.append(event(categorized(1), id: id)), .duplicate(1))
        // Within one batch too: the second copy is a duplicate of the first.
        let id2 = EventID.generate()
        XCTAssertEqual(try log.append([event(categorized(3), id: id2), event(categorized(3), id: id2)]),
                       [.appended(3), .duplicate(3)])
        XCTAssertEqual(try log.head().sequence, 3)
        XCTAssertTrue(try log.verify().isClean)
    }

    func testExpectedVersionConflictIsTypedAndAppendsNothing() throws {
        let log = try openLog()
        try log.append(event(categorized(1), stream: "email/a", expected: .noStream))
        try log.append(event(categorized(2), stream: "email/a", expected: .exactly(1)))
        XCTAssertEqual(try log.streamVersion("email/a"), 2)
        XCTAssertThrowsError(try log.append(event(categorized(3), stream: "email/a", expected: .exactly(1)))) { error in
            XCTAssertEqual(error as? EventLogError, .wrongExpectedVersion(stream: "email/a", expected: .exactly(1), actual: 2))
        }
        XCTAssertThrowsError(try log.append(event(categorized(3), stream: "email/a", expected: .noStream)))
        // Expected versions count the events earlier in the same batch.
        try log.append([event(categorized(4), stream: "email/b", expected: .noStream),
                        event(categorized(5), stream: "email/b", expected: .exactly(1))])
        XCTAssertEqual(try log.head().sequence, 4)
    }

    func testBatchThatFailsMidwayLeavesNothingBehind() throws {
        let log = try openLog()
        try log.append(event(categorized(0), stream: "x"))
        let before = try log.head()
        let blob = try log.prepareBlob(Array("raw message bytes".utf8))
        var batch = (1...5).map { event(categorized($0), stream: StreamName(rawValue: "y\($0)")) }
        batch.append(event(categorized(6), stream: "x", expected: .noStream)) // fails: x exists
        batch += (7...9).map { event(categorized($0), stream: StreamName(rawValue: "z\($0)")) }
        XCTAssertThrowsError(try log.append(batch, blobs: [blob]))
        XCTAssertEqual(try log.head().sequence, before.sequence)
        XCTAssertEqual(try log.head().hash, before.hash)
        XCTAssertFalse(try log.hasBlob(blob.hash), "no blob of the failed batch")
        XCTAssertEqual(try log.streamVersion("y1"), 0, "no stream state of the failed batch")
        XCTAssertNil(try log.sequence(of: batch[0].id), "no id index entry of the failed batch")
        XCTAssertEqual(try all(log).count, 1)
        XCTAssertTrue(try log.verify().isClean)
        // A failure encoding an event (an empty stream) also leaves nothing.
        XCTAssertThrowsError(try log.append([event(categorized(10), stream: "ok"), event(categorized(11), stream: "")]))
        XCTAssertEqual(try log.head().sequence, 1)
    }

    func testMapGrowsWhenFull() throws {
        let log = try openLog(mapSize: 1 << 20)
        let start = log.environment.mapSize
        for b in 0..<40 {
            try log.append((0..<100).map { event(categorized(b * 100 + $0, padding: 150), stream: StreamName(rawValue: "s\($0 % 7)")) })
        }
        XCTAssertGreaterThan(log.environment.mapSize, start, "the map grew")
        XCTAssertEqual(try log.head().sequence, 4000)
        XCTAssertEqual(try all(log).count, 4000)
        XCTAssertTrue(try log.verify().isClean)
    }

    func testBlobsAreStoredOnceAndReadBackExactly() throws {
        let log = try openLog()
        var raw = Array("From: a@example.com\r\nSubject: hi\r\n\r\n".utf8)
        raw += [UInt8](repeating: 0x41, count: 10_000) + [0, 0xFF, 0x80]
        let b1 = try log.prepareBlob(raw)
        let b2 = try log.prepareBlob(raw)
        XCTAssertEqual(b1.hash, b2.hash)
        try log.append([event(categorized(1))], blobs: [b1])
        try log.append([event(categorized(2))], blobs: [b2, b1])
        XCTAssertEqual(try log.blob(b1.hash), raw)
        let s = try log.stats()
        XCTAssertEqual(s.blobs, 1)
        XCTAssertEqual(s.blobRawBytes, UInt64(raw.count))
        XCTAssertLessThan(s.blobStoredBytes, UInt64(raw.count) / 10)
        XCTAssertNil(try log.blob(BlobHash(bytes: [UInt8](repeating: 7, count: 32))!))
    }

    func testScanFiltersByTypeStreamAccountAndSequence() throws {
        let log = try openLog()
        var batch: [NewEvent] = []
        for i in 0..<30 {
            let e: DomainEvent = i % 3 == 0 ? .folderRemoved(FolderRemoved(folder: "f\(i)")) : categorized(i)
            var ev = event(e, stream: StreamName(rawValue: "s\(i % 4)"))
            ev.account = i % 2 == 0 ? "even" : "odd"
            batch.append(ev)
        }
        try log.append(batch)
        XCTAssertEqual(try all(log, filter: ScanFilter(types: [.folderRemoved])).count, 10)
        XCTAssertEqual(try all(log, filter: ScanFilter(stream: "s1")).map(\.envelope.sequence), [2, 6, 10, 14, 18, 22, 26, 30])
        XCTAssertEqual(try all(log, filter: ScanFilter(stream: "s1"), from: 11).map(\.envelope.sequence), [14, 18, 22, 26, 30])
        XCTAssertEqual(try all(log, filter: ScanFilter(account: "even")).count, 15)
        XCTAssertEqual(try all(log, from: 25).map(\.envelope.sequence), Array(25...30))
        XCTAssertEqual(try all(log, filter: ScanFilter(types: [.folderRemoved], stream: "s0")).map(\.envelope.sequence), [1, 13, 25])
    }

    func testScanIsASnapshotOfTheHeadWhenItBegan() throws {
        let log = try openLog()
        try log.append((0..<10_000).map { event(categorized($0), stream: StreamName(rawValue: "s\($0 % 10)")) })
        var seen = 0
        try log.scan(chunkSize: 1000) { ev in
            seen += 1
            if ev.envelope.sequence == 500 { try log.append(event(categorized(-1))) }
            return true
        }
        XCTAssertEqual(seen, 10_000, "appends during a scan are not seen by it")
        XCTAssertEqual(try log.head().sequence, 10_001)
    }

    /// A scan in small chunks gives what one chunk gives: a stream's events over many chunks, a type that few
    /// events have (chunks that visit many records and pass none), with a start point, an early stop, and a
    /// stream's appends during its scan unseen.
    func testScansInSmallChunksSeeEveryEventOnceInOrder() throws {
        let log = try openLog()
        var batch: [NewEvent] = []
        for i in 0..<3_000 {
            batch.append(event(i % 97 == 0 ? .folderRemoved(FolderRemoved(folder: "f\(i)")) : categorized(i),
                               stream: StreamName(rawValue: i % 3 == 0 ? "hot" : "s\(i)")))
        }
        try log.append(batch)
        func scan(_ filter: ScanFilter, from: UInt64 = 1, chunk: Int, stopAfter: Int = .max) throws -> [UInt64] {
            var out: [UInt64] = []
            try log.scan(from: from, filter: filter, chunkSize: chunk) { out.append($0.envelope.sequence); return out.count < stopAfter }
            return out
        }
        let hot = Array(stride(from: UInt64(1), through: 3_000, by: 3))
        XCTAssertEqual(try scan(ScanFilter(stream: "hot"), chunk: 7), hot)
        XCTAssertEqual(try scan(ScanFilter(stream: "hot"), from: 1_500, chunk: 7), hot.filter { $0 >= 1_500 })
        XCTAssertEqual(try scan(ScanFilter(stream: "hot"), chunk: 7, stopAfter: 20), Array(hot.prefix(20)))
        let rare = (0..<3_000).filter { $0 % 97 == 0 }.map { UInt64($0 + 1) }
        XCTAssertEqual(try scan(ScanFilter(types: [.folderRemoved]), chunk: 2), rare)
        XCTAssertEqual(try scan(ScanFilter(types: [.folderRemoved], stream: "hot"), chunk: 3), rare.filter { ($0 - 1) % 3 == 0 })
        XCTAssertEqual(try scan(.all, chunk: 5).count, 3_000)
        var seen: [UInt64] = []
        try log.scan(filter: ScanFilter(stream: "hot"), chunkSize: 10) { ev in
            seen.append(ev.envelope.sequence)
            if seen.count == 5 { try log.append(event(categorized(-1), stream: "hot")) }
            return true
        }
        XCTAssertEqual(seen, hot, "a stream's appends during its scan are not seen by it")
    }

    func testConcurrentReaderInThisProcessSeesWholeBatches() throws {
        let log = try openLog()
        let done = LockedFlag()
        let violations = LockedFlag()
        let reader = Thread {
            while !done.value {
                let n = (try? log.environment.read { txn -> Int in
                    var c = 0
                    try log.withEventsCursor(txn) { _, _ in c += 1 }
                    return c
                }) ?? -1
                if n % 50 != 0 { violations.set() }
            }
        }
        reader.start()
        for b in 0..<200 { try log.append((0..<50).map { event(categorized(b * 50 + $0), stream: StreamName(rawValue: "b\(b)")) }) }
        done.set()
        while !reader.isFinished { usleep(1000) }
        XCTAssertFalse(violations.value)
    }

    func testReopenKeepsEverythingAndContinuesTheChain() throws {
        do {
            let log = try openLog()
            try log.append((0..<100).map { event(categorized($0)) })
        }
        let log = try openLog()
        XCTAssertEqual(try log.head().sequence, 100)
        try log.append(event(categorized(100)))
        XCTAssertEqual(try log.head().sequence, 101)
        XCTAssertTrue(try log.verify().isClean)
    }
}

/// A thread-safe boolean for tests.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}
