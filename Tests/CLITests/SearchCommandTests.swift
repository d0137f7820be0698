import CorpusGenerator
import Foundation
import TestSupport
import XCTest

final class SearchCommandTests: CLITestCase {
    struct Row: Decodable {
        var threadId: String
        var messageIds: [String]
        var emailIds: [String]
        var subject: String
        var participants: [Participant]
        var date: String
        struct Participant: Decodable {
            var name: String?
            var email: String
        }
    }

    func rows(_ r: ChildProcess.Result) throws -> [Row] {
        try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
    }

    func testSearchJSONPagingSortAndTheIndexFollowsReplayAndVerify() throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 300, outputDirectory: dir.file("md"), seed: 5))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        let all = try rows(try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json"))
        XCTAssertEqual(all.count, 300)
        XCTAssertEqual(all.map(\.date), all.map(\.date).sorted(by: >), "newest first")
        XCTAssertTrue(all.allSatisfy { !$0.threadId.isEmpty && $0.emailIds.count == 1 && !$0.participants.isEmpty })
        let oldest = try rows(try mailstore("search", "*", "--output", "messages", "--sort", "oldest", "--limit", "5", "--json"))
        XCTAssertEqual(oldest.map(\.emailIds), all.suffix(5).reversed().map(\.emailIds))
        // A time limit within its bounds changes nothing; outside them it is refused.
        XCTAssertEqual(try rows(try mailstore("search", "*", "--output", "messages", "--limit", "5", "--timeout", "0.1", "--json"))
            .map(\.emailIds), all.prefix(5).map(\.emailIds))
        for bad in ["0.05", "0", "3601", "-1", "nan"] {
            let r = try mailstore("search", "*", "--timeout=\(bad)", expect: 64)
            XCTAssertTrue(r.stderr.contains("--timeout must be between 0.1 and 3600 seconds"), "\(bad): \(r.stderr)")
        }
        let page2 = try rows(try mailstore("search", "*", "--output", "messages", "--offset", "5", "--limit", "5", "--json"))
        XCTAssertEqual(page2.map(\.emailIds), all[5..<10].map(\.emailIds))
        // A word from a subject, as threads: each row's matching messages are in it.
        let subjectWords: [String] = all.flatMap { $0.subject.split(separator: " ").map(String.init) }
        let word = try XCTUnwrap(subjectWords.first { $0.count >= 5 && $0.allSatisfy(\.isLetter) })
        let threads = try rows(try mailstore("search", "subject:\(word)", "--json", "--account", "demo"))
        XCTAssertFalse(threads.isEmpty)
        XCTAssertEqual(Set(threads.map(\.threadId)).count, threads.count, "one row per thread")
        let matchingMessages = try rows(try mailstore("search", "subject:\(word)", "--output", "messages", "--limit", "1000", "--json"))
        XCTAssertEqual(Set(threads.flatMap(\.emailIds)), Set(matchingMessages.flatMap(\.emailIds)))
        // A query term filters (an unknown account matches nothing); a mistyped --account is "no account" (exit 4).
        XCTAssertEqual(try rows(try mailstore("search", "subject:\(word) account:nobody", "--json")).count, 0)
        try mailstore("search", "subject:\(word)", "--account", "nobody", "--json", expect: 4)
        // Text output and files.
        let text = try mailstore("search", "*", "--limit", "3")
        XCTAssertEqual(text.stdout.split(separator: "\n").count, 3)
        var st = stat()
        XCTAssertEqual(stat(store + "/views/search/index.sqlite", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        // replay rebuilds it; verify --views checks it.
        try mailstore("replay", "--view", "search", "--quiet")
        try mailstore("replay", "--quiet")
        XCTAssertEqual(try rows(try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json")).count, 300)
        let verify = try mailstore("verify", "--views", "--quiet")
        XCTAssertTrue(verify.stdout.hasPrefix("OK"), verify.stdout)
        // Time travel: the store as it was before the import has no mail.
        let before = try rows(try mailstore("search", "*", "--as-of", "1", "--json"))
        XCTAssertEqual(before.count, 0)
    }

    /// `search --as-of` shows the mail as it was: threads deleted since are in their folder then and not in the
    /// Trash, a thread starred since is not starred, and mail imported later is not there; the live search shows
    /// now. Both from the one live index (the scratch folder of a past store never gets one).
    func testSearchAsOfShowsFoldersAndFlagsAsTheyWere() throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 120, outputDirectory: dir.file("md"), seed: 9))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        let inbox = try rows(try mailstore("search", "folder:INBOX", "--limit", "1000", "--json"))
        XCTAssertGreaterThan(inbox.count, 4)
        let stats = try JSONSerialization.jsonObject(with: Data(try mailstore("stats", "--json").stdout.utf8)) as? [String: Any]
        let before = try XCTUnwrap(stats?["events"] as? Int)
        let deleted = inbox.prefix(2).map(\.threadId), starred = inbox[2].threadId
        try mailstore(["delete"] + deleted)
        try mailstore("star", starred)
        _ = try generateCorpus(CorpusOptions(messages: 30, outputDirectory: dir.file("md2"), seed: 10))
        try mailstore("import", "--maildir", dir.file("md2"), "--account", "later", "--quiet")
        func threads(_ q: String, asOf: Int? = nil) throws -> Set<String> {
            let args = ["search", q, "--limit", "1000", "--json"] + (asOf.map { ["--as-of", String($0)] } ?? [])
            return Set(try rows(try mailstore(args)).map(\.threadId))
        }
        XCTAssertTrue(try threads("folder:Trash").isSuperset(of: deleted))
        XCTAssertTrue(try threads("folder:Trash", asOf: before).isDisjoint(with: deleted), "not in the Trash then")
        XCTAssertTrue(try threads("folder:INBOX", asOf: before).isSuperset(of: deleted), "in the Inbox then")
        XCTAssertEqual(try threads("folder:INBOX", asOf: before), Set(inbox.map(\.threadId)))
        XCTAssertTrue(try threads("is:starred").contains(starred))
        XCTAssertFalse(try threads("is:starred", asOf: before).contains(starred))
        XCTAssertEqual(try threads("account:later", asOf: before), [], "mail imported later is not there")
        XCTAssertFalse(try threads("account:later").isEmpty)
    }

    /// A search index a newer build wrote: `search` (live and as of a point) and `verify --views` stop with exit 2
    /// and say what to do, leaving the file as it is; `replay --view search` rebuilds it for this build.
    func testANewerBuildsSearchIndexIsLeftAsItIs() throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 40, outputDirectory: dir.file("md"), seed: 3))
        try mailstore("import", "--maildir", dir.file("md"), "--quiet")
        XCTAssertEqual(try rows(try mailstore("search", "*", "--output", "messages", "--limit", "100", "--json")).count, 40)
        let file = store + "/views/search/index.sqlite"
        func sql(_ statement: String) throws -> String {
            let r = try ChildProcess.run("/usr/bin/python3", ["-c", "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
                + "rows = c.execute(sys.argv[2]).fetchall()\nc.commit()\nprint(rows)", file, statement])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }
        let version = try sql("SELECT value FROM meta WHERE key = 'schema_version'")
        _ = try sql("UPDATE meta SET value = value + 1 WHERE key = 'schema_version'")
        let newer = try sql("SELECT value FROM meta WHERE key = 'schema_version'")
        XCTAssertNotEqual(newer, version)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for args in [["search", "*"], ["search", "*", "--as-of", "5"], ["verify", "--views", "--quiet"]] {
            let r = try mailstore(args, expect: 2)
            XCTAssertTrue(r.stderr.contains("written by a newer mailstore") && r.stderr.contains("mailstore replay --view search"), r.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), bytes, "\(args): the index untouched")
        }
        try mailstore("replay", "--view", "search", "--quiet")
        XCTAssertEqual(try sql("SELECT value FROM meta WHERE key = 'schema_version'"), version)
        XCTAssertEqual(try rows(try mailstore("search", "*", "--output", "messages", "--limit", "100", "--json")).count, 40)
    }

    func testAMalformedQueryPointsAtThePosition() throws {
        try mailstore("init")
        let r = try mailstore("search", "from:alice", "date:2024-13-01", expect: 64)
        XCTAssertTrue(r.stderr.contains("malformed query at character 17"), r.stderr)
        XCTAssertTrue(r.stderr.contains("from:alice date:2024-13-01\n                ^ invalid date"), r.stderr)
        try mailstore("search", "--limit", "0", "x", expect: 64)
    }

    /// A negative number after a numeric option is its value, refused as out of range (a usage error, 64, naming
    /// the option and its range), not taken for an option with the value missing.
    func testANegativeNumberIsRefusedNamingTheOptionsRange() throws {
        try mailstore("init")
        for (args, message) in [(["--offset", "-1"], "--offset must be between 0 and 1000000"),
                                (["--limit", "-5"], "--limit must be between 1 and 10000"),
                                (["--timeout", "-1"], "--timeout must be between 0.1 and 3600 seconds"),
                                (["--offset", "1000001"], "--offset must be between 0 and 1000000")] {
            let r = try mailstore(["search"] + args + ["x"], expect: 64)
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("Missing value"), "\(args): \(r.stderr)")
        }
        // So in every command with a numeric option (and `--as-of`).
        for (args, message) in [(["log", "--limit", "-1"], "--limit must be 0 or more"), (["log", "--last", "-5"], "--last must be 0 or more"),
                                (["project", "--view", "threads", "--limit", "-3"], "--limit must be between 1 and 10000"),
                                (["sync", "--timeout", "-1"], "--timeout is 0.1 to 3600 seconds"),
                                (["search", "--as-of", "-1", "x"], "'-1' is neither a sequence number nor a time"),
                                (["account", "add", "x", "--email", "a@example.com", "--host", "h", "--port", "-1"], "'-1' is invalid for '--port")] {
            let r = try mailstore(args, expect: 64)
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }
}
