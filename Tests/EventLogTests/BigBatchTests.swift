import EventLog
import EventModel
import LMDB
import TestSupport
import XCTest

/// Batches of 1,024 events or more are encoded on a second thread, a chunk of 1,024 at a time, while the
/// writer puts the chunks already encoded (`PreparedFeed`). These tests check that path against the
/// one-thread path and its failure cases.
final class BigBatchTests: EventLogTestCase {
    /// Stream `s` of the big batch: stream 7's name is too long to be its own index key (it is indexed by its
    /// hash, which the writer puts from the chunks' key bytes).
    private func streamName(_ s: Int) -> StreamName {
        StreamName(rawValue: s == 7 ? "s7/" + String(repeating: "long", count: 120) : "s\(s)")
    }

    /// 6,000 events over 50 streams, with an id repeated across chunks and expected versions in the last
    /// chunk that count the entries of the first ones.
    private func bigBatch() -> [NewEvent] {
        var batch = (0..<6_000).map { i in
            event(categorized(i, padding: i % 97 == 0 ? 1_500 : 0), stream: streamName(i % 50))
        }
        batch[5_500].id = batch[10].id                             // a duplicate of an event in chunk 0
        batch[5_990].expectedVersion = .exactly(119)                // s40: 119 entries before it (i = 40, 90, ...)
        return batch
    }

    func testABigBatchEqualsTheSameEventsAppendedInSmallBatches() throws {
        let batch = bigBatch()
        let big = try openLog()
        let outcomes = try big.append(batch)
        let otherDir = TemporaryDirectory("eventlog-small")
        var o = Environment.Options()
        o.mapSize = 256 << 20
        let small = try EventLog(path: otherDir.path, options: o)
        var smallOutcomes: [AppendOutcome] = []
        for start in stride(from: 0, to: batch.count, by: 100) {
            smallOutcomes += try small.append(Array(batch[start..<min(batch.count, start + 100)]))
        }
        XCTAssertEqual(outcomes, smallOutcomes)
        XCTAssertEqual(outcomes[5_500], .duplicate(11))
        XCTAssertEqual(try big.head().sequence, 5_999)
        let a = try all(big), b = try all(small)
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) {
            XCTAssertEqual(x.envelope.sequence, y.envelope.sequence)
            XCTAssertEqual(x.envelope.id, y.envelope.id)
            XCTAssertEqual(x.envelope.stream, y.envelope.stream)
            XCTAssertEqual(try x.decode(), try y.decode())
        }
        for s in 0..<50 {
            XCTAssertEqual(try big.streamVersion(streamName(s)), try small.streamVersion(streamName(s)), "stream \(s)")
            XCTAssertEqual(try big.streamVersion(streamName(s)), s == 0 ? 119 : 120, "stream \(s)")
        }
        XCTAssertTrue(try big.verify().isClean)
    }

    func testAWrongExpectedVersionInALateChunkCountsTheEarlierChunksAndAppendsNothing() throws {
        let log = try openLog()
        var batch = bigBatch()
        batch[5_990].expectedVersion = .exactly(3)
        XCTAssertThrowsError(try log.append(batch)) { error in
            XCTAssertEqual(error as? EventLogError, .wrongExpectedVersion(stream: "s40", expected: .exactly(3), actual: 119))
        }
        XCTAssertEqual(try log.head().sequence, 0)
        XCTAssertNil(try log.sequence(of: batch[0].id))
        // The writer is usable afterwards, on both paths.
        XCTAssertEqual(try log.append(bigBatch()).count, 6_000)
        XCTAssertEqual(try log.append(event(categorized(1))), .appended(6_000))
    }

    func testExpectedVersionsInSeveralChunksCountEveryEarlierEntryOnce() throws {
        // Each chunk's stream entries are in the index before the next chunk is put: a check counts them there,
        // and this chunk's own entries apart, never both.
        let log = try openLog()
        var batch = bigBatch()
        batch[1_540].expectedVersion = .exactly(30)                 // s40, chunk 1: i = 40, 90, ..., 1490
        batch[1_590].expectedVersion = .exactly(31)                 // the same chunk, after 1540's entry
        batch[4_040].expectedVersion = .exactly(80)                 // chunk 3
        XCTAssertEqual(try log.append(batch).last, .appended(5_999))
        XCTAssertEqual(try log.streamVersion(streamName(40)), 120)
        let otherDir = TemporaryDirectory("eventlog-wrong")
        var o = Environment.Options()
        o.mapSize = 256 << 20
        let other = try EventLog(path: otherDir.path, options: o)
        var wrong = bigBatch()
        wrong[1_540].expectedVersion = .exactly(30)
        wrong[4_040].expectedVersion = .exactly(80)
        wrong[4_090].expectedVersion = .exactly(80)                 // one too few: 4040's entry is counted
        XCTAssertThrowsError(try other.append(wrong)) { error in
            XCTAssertEqual(error as? EventLogError, .wrongExpectedVersion(stream: "s40", expected: .exactly(80), actual: 81))
        }
        XCTAssertEqual(try other.head().sequence, 0)
    }

    func testAnEventThatCannotBeEncodedInTheLastChunkFailsTheBatchAndAppendsNothing() throws {
        let log = try openLog()
        try log.append(event(categorized(0)))
        var batch = bigBatch()
        batch[5_999].stream = StreamName(rawValue: "")
        XCTAssertThrowsError(try log.append(batch)) { error in
            XCTAssertEqual(error as? EventLogError, .invalidStream(""))
        }
        XCTAssertEqual(try log.head().sequence, 1)
        XCTAssertEqual(try log.streamVersion("s1"), 0)
        XCTAssertEqual(try log.append(bigBatch()).last, .appended(6_000))
        XCTAssertTrue(try log.verify().isClean)
    }

    func testBigBatchesOneAfterAnotherReuseTheirBuffersCleanly() throws {
        // The chunks of one append are emptied and written again by the next (`SpareBatches`): a batch of small
        // events after one of big events must read back exactly, with nothing of the first left in it.
        let log = try openLog()
        let big = (0..<3_000).map { i in event(categorized(i, padding: 700), stream: streamName(i % 50)) }
        let small = (0..<4_100).map { i in event(categorized(i), stream: streamName(i % 9)) }
        try log.append(big)
        try log.append(small)
        try log.append(big.map { event($0.event, stream: $0.stream) })
        let read = try all(log)
        XCTAssertEqual(read.count, 10_100)
        for (i, e) in read.enumerated() {
            let input = i < 3_000 ? big[i] : i < 7_100 ? small[i - 3_000] : big[i - 7_100]
            XCTAssertEqual(try e.decode(), input.event, "event \(i + 1)")
            XCTAssertEqual(e.envelope.stream, input.stream.rawValue, "event \(i + 1)")
            if i < 7_100 { XCTAssertEqual(e.envelope.id, input.id, "event \(i + 1)") }
        }
        XCTAssertTrue(try log.verify().isClean)
    }

    func testTheChunksKeptAfterAnAppendStayWithinTheirBudget() throws {
        // 20,000 events of ~750 bytes encode into ~15 MB of chunks: the emptied ones kept for the next append
        // stop at 8 MiB, the rest are freed.
        let log = try openLog()
        try log.append((0..<20_000).map { i in event(categorized(i, padding: 600), stream: streamName(i % 50)) })
        XCTAssertGreaterThan(log.spareChunkBytes, 0, "chunks are kept for the next append")
        XCTAssertLessThanOrEqual(log.spareChunkBytes, 8 << 20)
        try log.append((0..<20_000).map { i in event(categorized(i), stream: streamName(i % 50)) })
        XCTAssertLessThanOrEqual(log.spareChunkBytes, 8 << 20)
        XCTAssertEqual(try log.head().sequence, 40_000)
    }

    func testABigBatchThatFillsTheMapRunsAgainWholeAfterItGrows() throws {
        let log = try openLog(mapSize: 1 << 20)
        let start = log.environment.mapSize
        let outcomes = try log.append(bigBatch())
        XCTAssertGreaterThan(log.environment.mapSize, start, "the map grew")
        XCTAssertEqual(outcomes.filter { if case .appended = $0 { true } else { false } }.count, 5_999)
        XCTAssertEqual(try all(log).count, 5_999)
        XCTAssertTrue(try log.verify().isClean)
    }
}
