import EventLog
import Foundation
import XCTest

/// A producer thread one chunk ahead of its taker: chunks in order, at most `depth` waiting, the producer's
/// error after the chunks made before it, and a cancel that stops and joins the producer.
final class ChunkFeedTests: XCTestCase {
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    func testChunksComeInOrderWithAtMostOneWaiting() throws {
        let made = Counter()
        let feed = ChunkFeed<Int> { emit in
            for i in 0..<50 {
                made.add()
                try emit(i)
            }
        }
        defer { feed.cancel() }
        Thread.sleep(forTimeInterval: 0.1)
        // One waiting, one made and blocked in emit: the producer is never further ahead.
        XCTAssertLessThanOrEqual(made.count, 2)
        var got: [Int] = []
        while let c = try feed.next() { got.append(c) }
        XCTAssertEqual(got, Array(0..<50))
        XCTAssertNil(try feed.next())
    }

    func testTheProducersErrorComesAfterTheChunksMadeBeforeIt() throws {
        struct Broken: Error, Equatable {}
        let feed = ChunkFeed<String> { emit in
            try emit("a")
            try emit("b")
            throw Broken()
        }
        defer { feed.cancel() }
        XCTAssertEqual(try feed.next(), "a")
        XCTAssertEqual(try feed.next(), "b")
        XCTAssertThrowsError(try feed.next()) { XCTAssertEqual($0 as? Broken, Broken()) }
    }

    func testCancelStopsAndJoinsTheProducer() throws {
        let made = Counter()
        let feed = ChunkFeed<Int> { emit in
            var i = 0
            while true {                                   // would never end without the cancel
                made.add()
                try emit(i)
                i += 1
            }
        }
        XCTAssertEqual(try feed.next(), 0)
        feed.cancel()
        let after = made.count
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(made.count, after, "the producer has ended")
        XCTAssertLessThanOrEqual(after, 3)
    }
}
