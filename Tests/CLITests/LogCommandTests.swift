import EventLog
import EventModel
import Foundation
@testable import MailStoreCLI
import TestSupport
import XCTest

/// `mailstore log`'s bounds: by time (`--since`, `--until`), by sequence (`--to-seq`), the newest few (`--last`)
/// and what is appended while it runs (`--follow`).
final class LogCommandTests: CLITestCase {
    /// 2030-01-01 10:00:00 UTC, in microseconds.
    let t0: Int64 = 1_893_492_000_000_000

    /// Sequences 2-4 at 10:00:00, 5-7 at 10:05:30 (stream `odd` for 5 and 7), 8-9 appended with the clock stepped
    /// back to 09:00 (so recorded at 10:05:30 too), 10-11 on the next day at 00:00:01 (account `b`).
    private func appendAtTimes() throws {
        try mailstore("init")
        let log = try EventLog(store: StoreDirectory(path: store))
        func folder(_ n: Int, account: String = "a", stream: String = "s") -> NewEvent {
            NewEvent(event: .folderRemoved(FolderRemoved(folder: "f\(n)")), account: account, stream: StreamName(rawValue: stream), actor: .system)
        }
        let t0 = self.t0
        log.clock = { Timestamp(microseconds: t0) }
        try log.append((2...4).map { folder($0) })
        log.clock = { Timestamp(microseconds: t0 + 330_000_000) }
        try log.append((5...7).map { folder($0, stream: $0 == 6 ? "s" : "odd") })
        log.clock = { Timestamp(microseconds: t0 - 3_600_000_000) }
        try log.append((8...9).map { folder($0) })
        log.clock = { Timestamp(microseconds: t0 + 50_401_000_000) }
        try log.append((10...11).map { folder($0, account: "b") })
    }

    private func sequences(_ args: String...) throws -> [Int] {
        try mailstore(["log"] + args).stdout.split(separator: "\n").map { Int($0.split(separator: " ")[0])! }
    }

    func testTimesBoundTheListingToTheirSpans() throws {
        try appendAtTimes()
        XCTAssertEqual(try sequences("--since", "2030-01-01 10:05"), Array(5...11), "from the minute's start")
        XCTAssertEqual(try sequences("--since", "2030-01-01T10:05:31Z"), [10, 11])
        XCTAssertEqual(try sequences("--until", "2030-01-01 10:00"), Array(1...4), "through the minute's end")
        XCTAssertEqual(try sequences("--since", "2030-01-01", "--until", "2030-01-01"), Array(2...9), "the whole day")
        XCTAssertEqual(try sequences("--since", "2030-01-02"), [10, 11])
        XCTAssertEqual(try sequences("--since", "2030-01-01 10:05:30", "--until", "2030-01-01 10:05:30", "--account", "a"), Array(5...9))
        XCTAssertEqual(try sequences("--since", "2031"), [])
        XCTAssertEqual(try sequences("--from-seq", "3", "--to-seq", "6"), [3, 4, 5, 6])
        XCTAssertEqual(try sequences("--since", "2030-01-01 10:05", "--to-seq", "6"), [5, 6])
        let json = try mailstore("log", "--since", "2030-01-02", "--json").stdout.split(separator: "\n")
        XCTAssertEqual(json.count, 2)
        let first = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json[0].utf8)) as? [String: Any])
        XCTAssertEqual(first["recordedAt"] as? String, "2030-01-02T00:00:01.000Z")
    }

    func testLastShowsTheNewestThatPassTheFiltersOldestFirst() throws {
        try appendAtTimes()
        XCTAssertEqual(try sequences("--last", "3"), [9, 10, 11])
        XCTAssertEqual(try sequences("--last", "2", "--account", "a"), [8, 9])
        XCTAssertEqual(try sequences("--last", "1", "--type", "StoreInitialized"), [1], "a walk back to the log's start")
        XCTAssertEqual(try sequences("--last", "2", "--stream", "odd"), [5, 7], "through the stream index")
        XCTAssertEqual(try sequences("--last", "1", "--stream", "odd", "--to-seq", "6"), [5])
        XCTAssertEqual(try sequences("--last", "2", "--stream", "s", "--until", "2030-01-01 10:00"), [3, 4])
        XCTAssertEqual(try sequences("--last", "50", "--from-seq", "8"), Array(8...11), "fewer than asked: all of them")
        XCTAssertEqual(try sequences("--last", "5", "--stream", "nothing"), [])
        XCTAssertEqual(try sequences("--last", "0"), [])
    }

    func testOnlyALongScanReadsTheLogAhead() {
        let n = LogCommand.lookupSpan
        func ahead(_ from: UInt64, _ through: UInt64, limit: Int? = nil, last: Int? = nil, filtered: Bool = false,
                   stream: Bool = false) -> Bool {
            LogCommand.readsAhead(from: from, through: through, limit: limit, last: last, filtered: filtered, stream: stream)
        }
        XCTAssertFalse(ahead(1, n), "a span of lookupSpan events")
        XCTAssertTrue(ahead(1, n + 1))
        XCTAssertTrue(ahead(1, 2_000_000), "the whole log")
        XCTAssertFalse(ahead(1, 2_000_000, stream: true), "one stream: through its index, one by one")
        XCTAssertFalse(ahead(1, 2_000_000, limit: 50))
        XCTAssertFalse(ahead(1, 2_000_000, last: 20))
        XCTAssertTrue(ahead(1, 2_000_000, limit: 50, filtered: true), "a filter may pass over most of the log for 50")
        XCTAssertTrue(ahead(1, 2_000_000, last: 1, filtered: true))
        XCTAssertFalse(ahead(1_000_000, 1_000_100, filtered: true), "a filtered span of 101 events")
        XCTAssertFalse(ahead(10, 9), "an empty span")
    }

    /// Both ways of reading give the same events: a filtered walk back over more than `lookupSpan` events (read
    /// ahead) and a short listing (lookups) of the same log.
    func testALongScanAndAShortOneListTheSameEvents() throws {
        try mailstore("init")
        let log = try EventLog(store: StoreDirectory(path: store))
        let n = Int(LogCommand.lookupSpan) + 100
        try log.append((0..<n).map { i in
            NewEvent(event: .folderRemoved(FolderRemoved(folder: "f\(i)")), account: i == 0 ? "first" : "a",
                     stream: StreamName(rawValue: "s"), actor: .system)
        })
        XCTAssertEqual(try sequences("--last", "1", "--account", "first"), [2], "a walk back over the whole log")
        XCTAssertEqual(try sequences("--type", "StoreInitialized"), [1], "a filtered scan of the whole log")
        XCTAssertEqual(try sequences("--from-seq", "20000", "--limit", "3"), [20000, 20001, 20002])
        XCTAssertEqual(try sequences("--last", "2"), [n, n + 1])
    }

    func testContradictoryOrMalformedBoundsAreRefused() throws {
        try appendAtTimes()
        let cases: [([String], String)] = [
            (["--last", "2", "--limit", "3"], "give --last or --limit, not both"),
            (["--follow", "--until", "now"], "--follow shows events as they come"),
            (["--follow", "--to-seq", "9"], "--follow shows events as they come"),
            (["--from-seq", "5", "--to-seq", "4"], "--to-seq 4 is before --from-seq 5"),
            (["--last=-1"], "--last must be 0 or more"),
        ]
        for (args, message) in cases {
            let r = try mailstore(["log"] + args, expect: 64)
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("Usage: mailstore log"), "\(args): \(r.stderr)")
        }
        // A time refused once the command runs (it is read then: `2h` counts back from then) is one line saying why and
        // what to write, without the usage, as `--as-of`'s is.
        let times: [([String], String)] = [
            (["--since", "2030-02-30"], "--since: invalid time '2030-02-30'; use YYYY"),
            (["--until", "10:00"], "--until: invalid time '10:00'"),
            (["--since", "2030-01-02", "--until", "2030-01-01"], "--since 2030-01-02 is not before --until 2030-01-01"),
            (["--since", "2h", "--until", "3h"], "--since 2h is not before --until 3h"),
        ]
        for (args, message) in times {
            let r = try mailstore(["log"] + args, expect: 64)
            XCTAssertTrue(r.stderr.hasPrefix("mailstore: error: \(message)"), "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("Usage:"), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
        }
    }

    /// `verify` says where an older build recorded times going back (not a failure), and where none do, nothing.
    func testVerifyNotesRecordedTimesGoingBack() throws {
        try appendAtTimes()
        // Its times (2030) are ahead of the clock, which verify notes too; none goes back.
        XCTAssertFalse(try mailstore("verify").stdout.contains("Note: recorded times go back"), "this build keeps them in order")
        let log = try EventLog(store: StoreDirectory(path: store))
        log.keepsRecordedTimesInOrder = false
        log.clock = { Timestamp(microseconds: 1_000) }
        try log.append(NewEvent(event: .folderRemoved(FolderRemoved(folder: "old")), account: "a", stream: "s", actor: .system))
        let text = try mailstore("verify").stdout
        XCTAssertTrue(text.hasPrefix("OK: 12 events"), text)
        XCTAssertTrue(text.contains("Note: recorded times go back at 1 record, the first at sequence 12 "), text)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try mailstore("verify", "--json").stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["recordedTimesBack"] as? Int, 1)
        XCTAssertEqual(json["firstRecordedTimeBack"] as? Int, 12)
        XCTAssertEqual(json["clean"] as? Bool, true)
    }

    /// `--follow` shows what is appended after it started, and `--limit` ends it.
    func testFollowShowsEventsAppendedWhileItRuns() throws {
        try appendAtTimes()
        var environment = ProcessInfo.processInfo.environment
        environment["MAILSTORE_HOME"] = store
        let env = environment
        let executable = BuiltProducts.executable("mailstore")
        let output = Locked<ChildProcess.Result?>(nil)
        let follower = BackgroundTask {
            let r = try ChildProcess.run(executable, ["log", "--from-seq", "12", "--follow", "--limit", "2", "--json"], environment: env)
            output.withLock { $0 = r }
        }
        let log = try EventLog(store: StoreDirectory(path: store))
        for n in 12...13 {
            Thread.sleep(forTimeInterval: 0.3)
            try log.append(NewEvent(event: .folderRemoved(FolderRemoved(folder: "late\(n)")), account: "a", stream: "s", actor: .system))
        }
        try follower.wait(seconds: 30)
        let r = try XCTUnwrap(output.withLock { $0 })
        XCTAssertEqual(r.status, 0, r.stderr)
        let seqs = try r.stdout.split(separator: "\n").map { line in
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["seq"] as? Int
        }
        XCTAssertEqual(seqs, [12, 13])
    }
}
