import Foundation
import TestSupport
import XCTest

/// Views and a search index folded from another log than the store's (its `log/` restored from a backup, as
/// operations.md says to do; a views folder copied from another store) are rebuilt from the log, with a notice:
/// served, they had listed mail the log never had (exit 0, no word), and an action on it had appended events about it.
final class ViewsOfAnotherLogTests: CLITestCase {
    /// An mbox of `count` small messages whose Message-IDs and subjects carry `tag`.
    func mbox(_ tag: String, count: Int) throws -> String {
        let path = dir.file("\(tag).mbox")
        var text = ""
        for i in 0..<count {
            text += "From sender@example.com Mon Jan  1 00:00:00 2024\nFrom: Sender <sender@example.com>\nSubject: \(tag) note \(i)\n"
                + "Date: Mon, 1 Jan 2024 00:0\(i % 10):00 +0000\nMessage-ID: <\(tag)\(i)@example.com>\n\nabout \(tag) \(i)\n\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func threadCount(_ extra: [String] = []) throws -> (count: Int, stderr: String) {
        let r = try mailstore(["project", "--view", "threads", "--all", "--json"] + extra)
        let page = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return ((page["threads"] as? [[String: Any]])?.count ?? -1, r.stderr)
    }

    func hits(_ word: String, store other: [String] = []) throws -> Int {
        let out = try mailstore(["search", word, "--json"] + other).stdout
        return (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [Any])?.count ?? -1
    }

    func replace(_ folder: String, with source: String) throws {
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.copyItem(atPath: source, toPath: folder)
    }

    func testViewsFoldedPastARestoredLogAreRebuilt() throws {
        try mailstore("init")
        try mailstore("import", "--mbox", try mbox("early", count: 3), "--folder", "INBOX", "--quiet")
        XCTAssertEqual(try hits("early"), 3)
        let saved = dir.file("log-backup")
        try FileManager.default.copyItem(atPath: store + "/log", toPath: saved)
        try mailstore("import", "--mbox", try mbox("later", count: 4), "--folder", "INBOX", "--quiet")
        XCTAssertEqual(try threadCount().count, 7)
        XCTAssertEqual(try hits("later"), 4)

        try replace(store + "/log", with: saved)
        let (count, notice) = try threadCount()
        XCTAssertEqual(count, 3, "only what the log holds")
        XCTAssertTrue(notice.contains("past the log's end") && notice.contains("rebuilding them from the log"), notice)
        XCTAssertEqual(try hits("later"), 0, "the search index too")
        XCTAssertEqual(try hits("early"), 3)
        try mailstore("verify", "--views")

        // The log goes on another way from the restored point, as long as it had been: the views of the old way are
        // told by their link's chain hash, not by their length.
        try mailstore("import", "--mbox", try mbox("other", count: 4), "--folder", "INBOX", "--quiet")
        try replace(store + "/log", with: saved)
        try mailstore("import", "--mbox", try mbox("again", count: 4), "--folder", "INBOX", "--quiet")
        let again = try threadCount()
        XCTAssertEqual(again.count, 7)
        XCTAssertEqual(try hits("other"), 0)
        XCTAssertEqual(try hits("again"), 4)
        try mailstore("verify", "--views")
    }

    func testViewsOfAnotherStoreAreRebuilt() throws {
        try mailstore("init")
        try mailstore("import", "--mbox", try mbox("mine", count: 2), "--folder", "INBOX", "--quiet")
        XCTAssertEqual(try hits("mine"), 2)
        let theirs = dir.file("theirs")
        try mailstore("init", "--store", theirs)
        try mailstore("import", "--mbox", try mbox("theirs", count: 5), "--folder", "INBOX", "--quiet", "--store", theirs)
        XCTAssertEqual(try hits("theirs", store: ["--store", theirs]), 5)
        try replace(store + "/views", with: theirs + "/views")
        let (count, notice) = try threadCount()
        XCTAssertEqual(count, 2)
        XCTAssertTrue(notice.contains("rebuilding them from the log"), notice)
        XCTAssertEqual(try hits("theirs"), 0)
        XCTAssertEqual(try hits("mine"), 2)
        try mailstore("verify", "--views")
    }
}
