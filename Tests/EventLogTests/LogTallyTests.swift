import EventLog
import EventModel
import Foundation
import Glibc
import XCTest

final class LogTallyTests: EventLogTestCase {
    /// The fields of stats compared (LogStats holds file sizes that a cache does not change).
    func summary(_ s: LogStats) -> String {
        "events \(s.events) records \(s.recordBytes) payloads \(s.payloadBytes)/\(s.storedPayloadBytes) "
            + "blobs \(s.blobs) \(s.blobRawBytes)/\(s.blobStoredBytes) dictionaries \(s.dictionaries) "
            + s.types.map { "\($0.type.rawValue):\($0.count):\($0.storedBytes):\($0.payloadBytes)" }.joined(separator: ",")
    }

    func appendMail(_ log: EventLog, from: Int, count: Int) throws {
        for i in from..<(from + count) {
            let blob = try log.prepareBlob(Array("message \(i) ".utf8) + Array(repeating: UInt8(ascii: "x"), count: 200 + i))
            try log.append([event(categorized(i, padding: i % 7)), event(.flagsChanged(FlagsChanged(emailID: "email-\(i)", folder: "INBOX", flags: ["\\Seen"])))],
                           blobs: [blob])
        }
    }

    func cached(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    }

    func rewrite(_ path: String, _ change: (inout [String: Any]) -> Void) throws {
        var obj = try cached(path)
        change(&obj)
        try JSONSerialization.data(withJSONObject: obj).write(to: URL(fileURLWithPath: path))
    }

    /// Counted through a cache, stats are what a whole walk gives, after every append; the cache is private.
    func testStatsThroughTheCacheEqualAWholeWalkAsTheLogGrows() throws {
        let log = try openLog()
        let cache = dir.file("cache/log-stats.json")
        XCTAssertEqual(summary(try log.stats(cache: cache)), summary(try log.stats()), "an empty log")
        for round in 0..<4 {
            try appendMail(log, from: round * 10, count: 10)
            XCTAssertEqual(summary(try log.stats(cache: cache)), summary(try log.stats()), "after round \(round)")
            XCTAssertEqual(summary(try log.stats(cache: cache)), summary(try log.stats()), "again, nothing new")
        }
        let s = try log.stats(cache: cache)
        XCTAssertEqual(s.events, 80)
        XCTAssertEqual(s.blobs, 40)
        var st = stat()
        XCTAssertEqual(stat(cache, &st), 0)
        XCTAssertEqual(Int(st.st_mode & 0o777), 0o600)
        XCTAssertEqual(stat(dir.file("cache"), &st), 0)
        XCTAssertEqual(Int(st.st_mode & 0o777), 0o700)
        XCTAssertEqual(try cached(cache)["sequence"] as? Int, 80)
    }

    /// The cache is read and only what came since is walked (a count planted in it shows through); a cache that is
    /// not this log's (another chain hash, a blob number the log lacks, another format, not JSON) is not used, and
    /// is replaced by the right counts.
    func testACacheIsUsedOnlyWhereItIsThisLogs() throws {
        let log = try openLog()
        let cache = dir.file("cache/log-stats.json")
        try appendMail(log, from: 0, count: 5)
        let truth = summary(try log.stats(cache: cache))
        try rewrite(cache) { $0["events"] = 1_000 }
        XCTAssertEqual(try log.stats(cache: cache).events, 1_000, "the cache is read, not the log walked again")
        try appendMail(log, from: 5, count: 1)
        XCTAssertEqual(try log.stats(cache: cache).events, 1_002, "what came since is added to it")

        try appendMail(log, from: 6, count: 2)
        let grown = summary(try log.stats())
        let planted: [(String, (inout [String: Any]) -> Void)] = [
            ("another chain hash", { $0["chainHash"] = String(repeating: "ab", count: 32) }),
            ("a sequence the log lacks", { $0["sequence"] = 999 }),
            ("a blob number the log lacks", { $0["lastBlobNumber"] = 77 }),
            ("more hash-keyed blobs than there are", { $0["legacyBlobs"] = 3 }),
            ("another format", { $0["version"] = 2 }),
        ]
        for (what, change) in planted {
            try rewrite(cache) { obj in
                change(&obj)
                obj["events"] = 1_000
            }
            XCTAssertEqual(summary(try log.stats(cache: cache)), grown, what)
            XCTAssertEqual(try cached(cache)["events"] as? Int, 16, "\(what): replaced")
        }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: cache))
        XCTAssertEqual(summary(try log.stats(cache: cache)), grown, "not JSON")
        XCTAssertNotEqual(truth, grown)

        // Another log's cache, at the same sequence: its chain hash differs.
        try FileManager.default.createDirectory(atPath: dir.file("other"), withIntermediateDirectories: true)
        let other = try EventLog(path: dir.file("other"))
        try appendMail(other, from: 100, count: 8)
        let otherCache = dir.file("other-cache.json")
        _ = try other.stats(cache: otherCache)
        try FileManager.default.removeItem(atPath: cache)
        try FileManager.default.copyItem(atPath: otherCache, toPath: cache)
        XCTAssertEqual(summary(try log.stats(cache: cache)), grown, "another log's cache")
    }

    /// Where the cache cannot be written, stats are counted all the same.
    func testStatsAreCountedWhereTheCacheCannotBeWritten() throws {
        let log = try openLog()
        try appendMail(log, from: 0, count: 3)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.file("file"), contents: nil))
        let cache = dir.file("file/log-stats.json")
        XCTAssertEqual(summary(try log.stats(cache: cache)), summary(try log.stats()))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache))
    }
    /// A cache file is hostile too: one with a count no log reaches (a planted `UInt64.max`, which adding to would
    /// trap) or over `LogTally.maxBytes` is not read, and the log is walked.
    func testACacheWithImpossibleCountsOrTooManyBytesIsNotRead() throws {
        let log = try openLog()
        let cache = dir.file("cache/log-stats.json")
        try appendMail(log, from: 0, count: 4)
        _ = try log.stats(cache: cache)
        try appendMail(log, from: 4, count: 2)
        let truth = summary(try log.stats())
        try rewrite(cache) { $0["events"] = UInt64.max }
        XCTAssertEqual(summary(try log.stats(cache: cache)), truth, "a count past 2^56")
        try rewrite(cache) { obj in
            var types = obj["types"] as! [[String: Any]]
            types[0]["storedBytes"] = (1 as UInt64) << 57
            obj["types"] = types
        }
        XCTAssertEqual(summary(try log.stats(cache: cache)), truth, "a type's size past 2^56")
        try rewrite(cache) { $0["padding"] = String(repeating: "x", count: 300 * 1024) }
        var st = stat()
        XCTAssertEqual(stat(cache, &st), 0)
        XCTAssertGreaterThan(Int(st.st_size), 256 * 1024)
        try rewrite(cache) { $0["events"] = 1_000 }
        XCTAssertEqual(try log.stats(cache: cache).events, 12, "over the byte bound: not read")
    }
}
