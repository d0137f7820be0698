import EventLog
import EventModel
import Foundation
import TestSupport
import XCTest

/// A log that appends keeps `stats`' cache current as it goes (`EventLog.keepsTally`): the first `stats` after an
/// import no longer walks what the import wrote.
final class KeptTallyTests: EventLogTestCase {
    var cache: String { dir.file("cache/log-stats.json") }

    /// A log keeping its tally in `cache`.
    func keepingLog() throws -> EventLog {
        let log = try openLog()
        log.tallyCache = cache
        return log
    }

    func json(_ path: String) throws -> NSDictionary {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! NSDictionary
    }

    /// The tally the kept one must equal: `stats` walking the whole log into a file of its own.
    func walked(_ log: EventLog) throws -> NSDictionary {
        let path = dir.file("walk-\(UUID().uuidString).json")
        _ = try log.stats(cache: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try json(path)
    }

    /// The kept tally as written, without `stats` walking anything on from it.
    func kept(_ log: EventLog) throws -> NSDictionary {
        log.saveKeptTally()
        return try json(cache)
    }

    /// A long payload (over the 1,024 bytes from which records are compressed), so stored and raw sizes differ.
    func long(_ n: Int) -> DomainEvent {
        .emailCategorized(EmailCategorized(emailID: "email-\(n)-" + String(repeating: "long ", count: 400),
                                           category: .updates, classifier: "test"))
    }

    /// Every kind of append leaves the kept tally equal to a whole walk of the log: every example event type, long
    /// (compressed) payloads, a batch big enough to be encoded on a second thread, events already in the log (not
    /// appended again), blobs alone, a blob given twice, a blob already stored.
    func testTheKeptTallyEqualsAWholeWalkAfterEveryKindOfAppend() throws {
        let log = try keepingLog()
        try log.append([event(categorized(0))])
        XCTAssertTrue(log.keepsTally)
        XCTAssertEqual(try kept(log), try walked(log), "one event")

        try log.append(DomainEvent.examples.enumerated().map { event($0.element, stream: StreamName(rawValue: "ex-\($0.offset)")) })
        XCTAssertEqual(try kept(log), try walked(log), "every example type")

        let blobA = try log.prepareBlob(Array(repeating: UInt8(ascii: "a"), count: 5_000))
        let blobB = try log.prepareBlob(Array("short".utf8))
        try log.append([event(long(1)), event(long(2))], blobs: [blobA, blobB, blobA])
        XCTAssertEqual(try kept(log), try walked(log), "long payloads and two blobs, one given twice")

        let big = (0..<1_500).map { event($0 % 3 == 0 ? long($0) : categorized($0, padding: $0 % 11), stream: StreamName(rawValue: "big-\($0 % 17)")) }
        try log.append(big, blobs: [try log.prepareBlob(Array("big".utf8))])
        XCTAssertEqual(try kept(log), try walked(log), "a batch encoded on a second thread")

        try log.append(Array(big.prefix(20)) + [event(categorized(9_999))], blobs: [blobA])
        XCTAssertEqual(try kept(log), try walked(log), "events and a blob already in the log")

        try log.putBlob(Array("a blob alone".utf8))
        XCTAssertEqual(try kept(log), try walked(log), "a blob alone")
        XCTAssertEqual(try json(cache)["sequence"] as? UInt64, try log.head().sequence)
        XCTAssertTrue(log.keepsTally)
    }

    /// An append that fails (an expected version not met) adds nothing to the tally.
    func testAFailedAppendAddsNothing() throws {
        let log = try keepingLog()
        try log.append([event(categorized(1), stream: "one")])
        let before = try kept(log)
        // Its first event is put before the second fails the batch.
        XCTAssertThrowsError(try log.append([event(categorized(2), stream: "two"), event(categorized(3), stream: "one", expected: .noStream)],
                                            blobs: [try log.prepareBlob(Array("lost".utf8))]))
        XCTAssertEqual(try kept(log), before)
        try log.append([event(categorized(4))])
        XCTAssertEqual(try kept(log), try walked(log))
    }

    /// It starts from a cache file that holds for the log and walks what came after it; from nothing where there is
    /// none; and not at all where more than the walk limit came after it (`stats` then walks as before).
    func testKeepingStartsFromTheCacheOrFromNothingWithinTheWalkLimit() throws {
        do {
            let log = try openLog()
            for i in 0..<10 { try log.append([event(categorized(i))], blobs: [try log.prepareBlob(Array("m\(i)".utf8))]) }
            _ = try log.stats(cache: cache)
            for i in 10..<14 { try log.append([event(categorized(i))]) }
        }
        /// Opens the log keeping its tally with a walk limit of `most`, appends an event, and says whether it keeps it
        /// (checking then that it equals a whole walk); closed on return.
        func appendKeeping(most: UInt64, _ n: Int) throws -> Bool {
            let log = try keepingLog()
            log.tallyWalkMost = most
            try log.append([event(categorized(n))])
            if log.keepsTally { XCTAssertEqual(try kept(log), try walked(log)) }
            return log.keepsTally
        }
        XCTAssertFalse(try appendKeeping(most: 3, 20), "4 events after the cache: over the limit of 3")
        XCTAssertEqual(try json(cache)["sequence"] as? UInt64, 10, "the cache as stats left it")
        XCTAssertTrue(try appendKeeping(most: 5, 21), "5 events after the cache")
        try FileManager.default.removeItem(atPath: cache)
        XCTAssertFalse(try appendKeeping(most: 15, 22), "no cache, 16 events before: over the limit of 15")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache))
        XCTAssertTrue(try appendKeeping(most: 17, 23), "no cache, 17 events before")
    }

    /// A cache file is hostile: one holding counts at the most a cache may hold (2^56, planted with the log's right
    /// chain hash) is kept only until an append would carry a count past that: the keeping then ends, without a trap
    /// and without writing such a count.
    func testCountsPlantedAtTheBoundEndTheKeepingWithoutATrap() throws {
        do {
            let log = try openLog()
            try log.append([event(categorized(0))])
            _ = try log.stats(cache: cache)
        }
        var planted = try json(cache) as! [String: Any]
        planted["events"] = UInt64(1) << 56
        try JSONSerialization.data(withJSONObject: planted).write(to: URL(fileURLWithPath: cache))
        let log = try keepingLog()
        try log.append([event(categorized(1))])
        XCTAssertFalse(log.keepsTally)
        log.saveKeptTally()
        XCTAssertEqual(try json(cache)["events"] as? UInt64, UInt64(1) << 56, "the planted file as it was")
        XCTAssertEqual(try log.head().sequence, 2)
    }

    /// The tally is written when the log is closed, and `stats` in the same process sees it.
    func testTheKeptTallyIsWrittenOnCloseAndSeenByStats() throws {
        do {
            let log = try keepingLog()
            for i in 0..<5 { try log.append([event(categorized(i))]) }
            XCTAssertEqual(try log.stats(cache: cache).events, 5)
            try log.append([event(categorized(5))])
            XCTAssertEqual(try json(cache)["sequence"] as? UInt64, 5, "not written at each append")
        }
        XCTAssertEqual(try json(cache)["sequence"] as? UInt64, 6, "written when the log closed")
        var st = stat()
        XCTAssertEqual(stat(cache, &st), 0)
        XCTAssertEqual(Int(st.st_mode & 0o777), 0o600)
    }

    /// Another process appending in between ends the keeping (what was kept is written first): the tally would
    /// otherwise miss its events. `stats` then walks them.
    func testAnotherProcessAppendingEndsTheKeeping() throws {
        let log = try keepingLog()
        for i in 0..<4 { try log.append([event(categorized(i))]) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore-torture"))
        p.arguments = ["append", "--path", dir.path, "--batches", "2", "--batch-size", "3"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        // It appends batches up to the number it is given (counting the log's events as batches of its size).
        let afterOther = try log.head().sequence
        XCTAssertGreaterThan(afterOther, 4)
        try log.append([event(categorized(99))])
        XCTAssertFalse(log.keepsTally)
        XCTAssertEqual(try json(cache)["sequence"] as? UInt64, 4, "what was kept, written when the keeping ended")
        let s = try log.stats(cache: cache)
        XCTAssertEqual(s.events, afterOther + 1)
        XCTAssertEqual(try json(cache), try walked(log))
    }
}
