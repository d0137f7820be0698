import CorpusGenerator
import EventLog
import EventModel
import Foundation
import TestSupport
import XCTest

final class CoreCommandTests: CLITestCase {
    func testInitCreatesAStoreOnceAndLogShowsItsFirstEvent() throws {
        let r = try mailstore("init")
        XCTAssertTrue(r.stdout.contains(store))
        let again = try mailstore("init", expect: 2)
        XCTAssertTrue(again.stderr.contains("already exists"))
        let log = try mailstore("log")
        XCTAssertTrue(log.stdout.contains("StoreInitialized"))
        XCTAssertTrue(log.stdout.hasPrefix("      1  "))
    }

    func testLogJSONLinesCarryEnvelopeAndPayload() throws {
        try mailstore("init")
        try appendExamples()
        let r = try mailstore("log", "--json")
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1 + DomainEvent.examples.count)
        for (i, line) in lines.enumerated() {
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            XCTAssertEqual(obj["seq"] as? Int, i + 1)
            XCTAssertNotNil(obj["payload"] as? [String: Any], "line \(i + 1) has a payload")
            XCTAssertNotNil(obj["type"] as? String)
            XCTAssertNil(obj["decodeError"])
        }
        let received = lines.first { $0.contains("\"type\":\"EmailReceived\"") }!
        let obj = try JSONSerialization.jsonObject(with: Data(received.utf8)) as! [String: Any]
        let payload = obj["payload"] as! [String: Any]
        let from = payload["from"] as! [[String: Any]]
        XCTAssertEqual(from[1]["email"] as? String, "bob@example.org")
        XCTAssertTrue(from[1]["name"] is NSNull, "participants keep an explicit null name")
    }

    func testLogFilters() throws {
        try mailstore("init")
        try appendExamples()
        let byType = try mailstore("log", "--type", "EmailReceived,FlagsChanged")
        XCTAssertEqual(byType.stdout.split(separator: "\n").count, 2)
        let byStream = try mailstore("log", "--stream", "stream-3", "--json")
        XCTAssertEqual(byStream.stdout.split(separator: "\n").count, 1)
        let fromSeq = try mailstore("log", "--from-seq", "30", "--limit", "2")
        XCTAssertEqual(fromSeq.stdout.split(separator: "\n").map { $0.split(separator: " ")[0] }, ["30", "31"])
        let bad = try mailstore("log", "--type", "NoSuchType", expect: 64)
        XCTAssertTrue(bad.stderr.contains("unknown event type 'NoSuchType'"))
    }

    func testVerifyPassesThenNamesTheFlippedSequence() throws {
        try mailstore("init")
        let marker = "FLIPME-\(UUID().uuidString)"
        do {
            let log = try EventLog(store: StoreDirectory(path: store))
            try log.append((0..<40).map { i in
                NewEvent(event: .folderRemoved(FolderRemoved(folder: i == 20 ? marker : "f\(i)")), account: "a",
                         stream: "s", actor: .system)
            })
        }
        let ok = try mailstore("verify")
        XCTAssertTrue(ok.stdout.hasPrefix("OK: 41 events"))
        let file = store + "/log/data.mdb"
        var data = try Data(contentsOf: URL(fileURLWithPath: file))
        let at = data.range(of: Data(marker.utf8))!.lowerBound
        data[at] ^= 0x20
        try data.write(to: URL(fileURLWithPath: file))
        let bad = try mailstore("verify", expect: 1)
        XCTAssertTrue(bad.stderr.contains("first bad sequence 22"), bad.stderr)
        XCTAssertTrue(bad.stdout.contains("BAD seq 22"))
    }

    /// Records of a schema newer than this build reads, whose chain holds, are a newer build's, not damage: `verify`
    /// says to upgrade (exit 2), never to restore the log from before them (which would lose them); the read commands
    /// name them.
    func testVerifyTellsANewerBuildsEventsFromDamage() throws {
        try mailstore("init")
        do {
            let log = try EventLog(store: StoreDirectory(path: store))
            try log.append(NewEvent(event: .folderRemoved(FolderRemoved(folder: "f")), account: "a", stream: "s", actor: .system))
            try log.append(NewEvent(event: .unknown(type: .folderRemoved, version: FolderRemoved.schemaVersion + 1, payload: [1, 0x66]),
                                    account: "a", stream: "s", actor: .system))
        }
        let r = try mailstore("verify", expect: 2)
        XCTAssertTrue(r.stderr.contains("1 event written by a newer mailstore, the first at sequence 3"), r.stderr)
        XCTAssertTrue(r.stderr.contains("upgrade mailstore"), r.stderr)
        XCTAssertFalse(r.stderr.contains("restored from a backup") || r.stderr.contains("verification failed"), r.stderr)
        XCTAssertFalse(r.stdout.contains("BAD"), r.stdout)
        let json = try mailstore("verify", "--json", expect: 2)
        let obj = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(obj["clean"] as? Bool, false)
        XCTAssertEqual(obj["newerEvents"] as? Int, 1)
        let shown = try mailstore("project", "--view", "folders")
        XCTAssertTrue(shown.stderr.contains("written by a newer mailstore"), shown.stderr)
    }

    func testStatsCountsByType() throws {
        try mailstore("init")
        try appendExamples()
        let r = try mailstore("stats", "--json")
        let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(obj["events"] as? Int, 1 + DomainEvent.examples.count)
        let types = obj["types"] as! [[String: Any]]
        XCTAssertEqual(types.first { $0["type"] as? String == "ThreadArchived" }?["count"] as? Int, 1)
        let text = try mailstore("stats")
        XCTAssertTrue(text.stdout.contains("Compression ratio"))
        // Whether folds map one page per fault here: the kernel decides; the text and the JSON agree.
        let single = try XCTUnwrap(obj["pagesMappedSingly"] as? Bool)
        XCTAssertTrue(text.stdout.contains(single ? "Memory maps: one page per fault" : "Memory maps: the kernel's fault-around stays on ("),
                      text.stdout)
    }

    /// An import leaves `stats`' cache current (the importing process keeps it as it appends), so the `stats` after
    /// it walks nothing: its figures are those of a whole walk, and the cache is not rewritten by it.
    func testAnImportLeavesTheStatsCacheCurrent() throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 120, outputDirectory: dir.file("md"), seed: 3))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        let cache = store + "/cache/log-stats.json"
        let kept = try Data(contentsOf: URL(fileURLWithPath: cache))
        let tally = try XCTUnwrap(try JSONSerialization.jsonObject(with: kept) as? [String: Any])
        let head = try EventLog(store: StoreDirectory(path: store)).head().sequence
        XCTAssertEqual(tally["sequence"] as? UInt64, head, "the cache ends at the log's head")
        let fromCache = try mailstore("stats", "--json").stdout
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), kept, "nothing walked, nothing rewritten")
        try FileManager.default.removeItem(atPath: cache)
        func counts(_ json: String) throws -> NSDictionary {
            let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            return NSDictionary(dictionary: all.filter { ["events", "types", "blobs", "blobRawBytes", "blobStoredBytes",
                                                          "recordBytes", "payloadBytes", "storedPayloadBytes"].contains($0.key) })
        }
        let walked = try mailstore("stats", "--json").stdout
        XCTAssertEqual(try counts(fromCache), try counts(walked))
        XCTAssertGreaterThanOrEqual(try counts(walked).count, 4)
        // The account's one dictionary, trained on the import, is counted in the singular.
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(walked.utf8)) as? [String: Any])
        XCTAssertEqual(json["dictionaries"] as? Int, 1)
        let text = try mailstore("stats").stdout
        XCTAssertTrue(text.contains(" stored, 1 zstd dictionary of "), text)
    }

    /// `stats` says what the store takes on disk, part by part, and the parts add up to the total.
    func testStatsSaysWhatEachPartTakesOnDisk() throws {
        try mailstore("init")
        try appendExamples()
        try mailstore("search", "anything")        // builds the views and the search index
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try mailstore("stats", "--json").stdout.utf8)) as? [String: Any])
        let views = try XCTUnwrap(obj["views"] as? [String: Any])
        func size(_ key: String) throws -> Int { try XCTUnwrap(views[key] as? Int, key) }
        func onDisk(_ path: String) throws -> Int { try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, path) }
        XCTAssertEqual(try size("logFileBytes"), try onDisk(store + "/log/data.mdb"))
        XCTAssertEqual(try size("searchIndexBytes"), try onDisk(store + "/views/search/index.sqlite"))
        let generation = try XCTUnwrap(views["generation"] as? String)
        XCTAssertEqual(try size("viewsFileBytes"), try onDisk(store + "/views/" + generation + "/data.mdb"))
        XCTAssertEqual(try size("totalBytes"), try ["logFileBytes", "viewsFileBytes", "searchIndexBytes"].map(size).reduce(0, +))
        // The views' history is part of the views file.
        XCTAssertEqual(views["keepsHistory"] as? Bool, true)
        XCTAssertGreaterThan(try size("historyBytes"), 0)
        XCTAssertLessThan(try size("historyBytes"), try size("viewsFileBytes"))
        let text = try mailstore("stats").stdout
        XCTAssertTrue(text.contains("On disk: ") && text.contains(" in all: log file ") && text.contains(", search index "), text)
        XCTAssertTrue(text.contains("(their history ") && text.contains("View history (for --as-of): "), text)
    }

    /// `init` makes a store in a new or empty folder only: a folder of other files (`--store ~` by mistake) is left as
    /// it was, mode included; an empty `--store` is a usage error, not the default store.
    func testInitRefusesAFolderHoldingOtherFilesAndAnEmptyPath() throws {
        let home = dir.file("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try "mine".write(toFile: home + "/notes.txt", atomically: true, encoding: .utf8)
        chmod(home, 0o755)
        let r = try mailstore("init", "--store", home, expect: 2)
        XCTAssertTrue(r.stderr.contains("it holds other files (notes.txt among them)"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home), ["notes.txt"])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: home)[.posixPermissions] as? Int, 0o755)
        try mailstore("init", "--store", home + "/notes.txt", expect: 2)
        let empty = dir.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try mailstore("init", "--store", empty)
        XCTAssertTrue(FileManager.default.fileExists(atPath: empty + "/FORMAT"))
        let blank = try mailstore("init", "--store", "", expect: 64)
        XCTAssertTrue(blank.stderr.contains("--store needs a path"), blank.stderr)
        XCTAssertTrue(blank.stderr.contains("Usage: mailstore init"), "the command's own usage: \(blank.stderr)")
        try mailstore("log", "--store", empty, "--stream", "", expect: 64)
        try mailstore("log", "--store", empty, "--type", ",", expect: 64)
        // A point past the log's end is read at its end, and said so.
        let past = try mailstore("project", "--store", empty, "--view", "accounts", "--as-of", "99")
        XCTAssertTrue(past.stderr.contains("(as of sequence 1, the log's last: 99 is past it)"), past.stderr)
    }

    func testMissingAndNewerStoresAreRefusedClearly() throws {
        let missing = try mailstore("log", expect: 2)
        XCTAssertTrue(missing.stderr.contains("mailstore init"))
        try mailstore("init")
        try "mailstore-store-format 99\n".write(toFile: store + "/FORMAT", atomically: true, encoding: .utf8)
        let newer = try mailstore("verify", expect: 2)
        XCTAssertTrue(newer.stderr.contains("format version 99"), newer.stderr)
    }

    /// Numbers from the command line are bounded: a NaN, an infinity or a huge count is refused (exit 64)
    /// before anything runs, rather than taken as no wait, a wait forever or a count that overflows.
    func testNumbersOutsideTheirBoundsAreRefused() throws {
        try mailstore("init")
        let huge = String(Int.max)
        let cases: [([String], String)] = [
            (["contacts", "complete", "a", "--limit", huge], "--limit must be between 1 and 1000"),
            (["contacts", "complete", "a", "--limit", "0"], "--limit must be between 1 and 1000"),
            (["contacts", "complete", String(repeating: "a", count: 100_000)], "PREFIX has 100000 characters; at most 256"),
            (["contacts", "complete", ""], "PREFIX is empty"),
            (["import", "--mbox", "/nonexistent", "--max-message-bytes", huge], "--max-message-bytes is 1 to 1073741824 (1 GiB)"),
            (["sync", "--timeout", "nan"], "--timeout is 0.1 to 3600 seconds"),
            (["sync", "--timeout", "inf"], "--timeout is 0.1 to 3600 seconds"),
            (["sync", "--timeout", "1e300"], "--timeout is 0.1 to 3600 seconds"),
            (["sync", "--watch", "--poll-interval", "nan"], "--poll-interval is 1 to 86400 seconds"),
            (["sync", "--watch", "--idle-refresh", "inf"], "--idle-refresh is 1 to 3600 seconds"),
            (["account", "login", "x", "--sign-in-timeout", "nan"], "--sign-in-timeout is 1-3600 seconds"),
            (["account", "login", "x", "--sign-in-timeout", "inf"], "--sign-in-timeout is 1-3600 seconds"),
        ]
        for (args, message) in cases {
            let r = try mailstore(args, expect: 64)
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        // Within the bounds, the largest completion asked is served.
        try mailstore("contacts", "complete", "a", "--limit", "1000")
        try mailstore("contacts", "complete", String(repeating: "a", count: 256))
    }

    /// A value a command refuses once it runs (a point in time that is not one, the name an import files under,
    /// several accounts and none given) is one `mailstore: error:` line with why and what to do, exit 64, without the
    /// usage text; a malformed command line (an unknown option, a value out of its range) still shows the usage.
    func testAValueRefusedOnceTheCommandRunsSaysWhyWithoutTheUsage() throws {
        try mailstore("init")
        try addAccount("work", email: "carol@example.com")
        try addAccount("home", email: "dan@example.com")
        let cases: [([String], String)] = [
            (["project", "--view", "accounts", "--as-of", "garbage"], "'garbage' is neither a sequence number nor a time: an ISO 8601 time"),
            (["search", "*", "--account", "work", "--as-of", "last tuesday"], "'last tuesday' is neither a sequence number nor a time"),
            (["import", "--mbox", "/nonexistent", "--account", "*"], "--account \"*\" cannot name an account: give 1 to 1,024 bytes"),
            (["project", "--view", "threads"], "this store has several accounts (home, work): give --account NAME or --unified"),
            (["draft", "new", "--to", "x@example.com"], "this store has several accounts (home, work): give --account NAME"),
        ]
        for (args, message) in cases {
            let r = try mailstore(args, expect: 64)
            XCTAssertTrue(r.stderr.hasPrefix("mailstore: error: "), "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("Usage:"), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
        }
        for args in [["project", "--view", "threads", "--bogus"], ["project", "--view", "threads", "--limit", "0"], ["project"]] {
            let r = try mailstore(args, expect: 64)
            XCTAssertTrue(r.stderr.contains("Usage: mailstore project"), "\(args): \(r.stderr)")
        }
    }

    func appendExamples() throws {
        let log = try EventLog(store: StoreDirectory(path: store))
        try log.append(DomainEvent.examples.enumerated().map { i, e in
            NewEvent(event: e, account: "a", stream: StreamName(rawValue: "stream-\(i)"), actor: .user)
        })
    }

    /// Under libfaketime's `LD_PRELOAD` Swift's runtime holds no arguments (`CommandLine.argc` 0): every command crashed
    /// on its UTF-8 check's empty range (exit 132). The arguments are read from /proc then, and still checked.
    func testACommandRunsUnderLibfaketimeWhoseRuntimeHoldsNoArguments() throws {
        let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
        XCTAssertTrue(FileManager.default.fileExists(atPath: library), "Tools/setup installs faketime")
        var env = ProcessInfo.processInfo.environment
        env["LD_PRELOAD"] = library
        env["FAKETIME"] = "+0"
        env["DONT_FAKE_MONOTONIC"] = "1"
        let exe = BuiltProducts.executable("mailstore")
        let version = try ChildProcess.run(exe, ["--version"], environment: env)
        XCTAssertEqual(version.status, 0, version.stderr)
        XCTAssertTrue(version.stdout.hasPrefix("mailstore "), version.stdout)
        let made = try ChildProcess.run(exe, ["init", "--store", store], environment: env)
        XCTAssertEqual(made.status, 0, made.stderr)
        let verify = try ChildProcess.run(exe, ["verify", "--store", store], environment: env)
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stdout.hasPrefix("OK: 1 event"), verify.stdout)
        let bad = try ChildProcess.run(exe, ["verify", "--store", store + "\u{FFFD}", "x"], environment: env)
        XCTAssertEqual(bad.status, 64, "an argument too many is still refused: \(bad.stderr)")
    }
}
