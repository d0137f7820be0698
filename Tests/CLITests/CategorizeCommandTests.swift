import CorpusGenerator
import Foundation
import TestSupport
import XCTest

/// `mailstore categorize`, the category tabs and the E-02 flag through the real binary.
final class CategorizeCommandTests: CLITestCase {
    func json(_ r: ChildProcess.Result) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    }

    func threads(_ category: String? = nil) throws -> [String] {
        var args = ["project", "--view", "threads", "--account", "demo", "--all", "--json"]
        if let category { args += ["--category", category] }
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        return (try json(r)["threads"] as! [[String: Any]]).map { $0["id"] as! String }
    }

    func testTabsCorrectionHistoryAndRerun() throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 200, outputDirectory: dir.file("md"), seed: 5))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        let all = try threads()
        let tabs = try ["primary", "social", "promotions", "updates"].map { try threads($0) }
        XCTAssertGreaterThan(tabs.map(\.count).reduce(0, +), 0, "import filled the tabs")
        XCTAssertLessThanOrEqual(tabs.map(\.count).reduce(0, +), all.count)

        let unread = try json(try mailstore("project", "--view", "unread", "--account", "demo", "--json"))
        XCTAssertEqual(unread["categoriesAvailable"] as? Bool, true)

        let thread = all[0]
        let c = try json(try mailstore("categorize", thread, "--as", "social", "--json"))
        XCTAssertEqual(c["category"] as? String, "social")
        XCTAssertTrue(try threads("social").contains(thread))
        let history = try mailstore("history", "--thread", thread)
        XCTAssertTrue(history.stdout.contains("the user's correction"), history.stdout)
        XCTAssertTrue(history.stdout.contains("by rules/1"), history.stdout)
        // An id that names no thread now says why that may be and how to find its messages.
        let gone = try mailstore("history", "--thread", "00000000000000ff", expect: 4)
        XCTAssertTrue(gone.stderr.contains("a message since joined it with another thread"), gone.stderr)

        let rerun = try json(try mailstore("categorize", "--rerun", "--json"))
        XCTAssertEqual(rerun["recategorized"] as? Int, 0)
        XCTAssertEqual(rerun["classifier"] as? String, "rules/1")
        XCTAssertGreaterThan(rerun["userCorrections"] as? Int ?? 0, 0)

        try mailstore("categorize", thread, "--as", "spam", expect: 64)
        try mailstore("categorize", thread, expect: 64)
        try mailstore("categorize", "--rerun", thread, expect: 64)
        try mailstore("categorize", "0000000000000000", "--as", "updates", expect: 4)
    }

    func testCategorizerOffHidesTheTabs() throws {
        try mailstore("init")
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        env["MAILSTORE_CATEGORIZER"] = "off"
        let exe = BuiltProducts.executable("mailstore")
        _ = try generateCorpus(CorpusOptions(messages: 20, outputDirectory: dir.file("md"), seed: 3))
        XCTAssertEqual(try ChildProcess.run(exe, ["import", "--maildir", dir.file("md"), "--account", "demo", "--quiet"], environment: env).status, 0)
        let unread = try ChildProcess.run(exe, ["project", "--view", "unread", "--account", "demo", "--json"], environment: env)
        XCTAssertEqual(try json(unread)["categoriesAvailable"] as? Bool, false)
        XCTAssertEqual(try threads("primary"), [], "nothing categorized")
        XCTAssertEqual(try ChildProcess.run(exe, ["categorize", "--rerun"], environment: env).status, 6)

        // Turned on again, a re-run files the mail imported meanwhile.
        let rerun = try json(try mailstore("categorize", "--rerun", "--json"))
        XCTAssertEqual(rerun["recategorized"] as? Int, 20)
        XCTAssertEqual(rerun["moved"] as? Int, 20)
    }
}
