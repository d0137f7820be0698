import CorpusGenerator
import Foundation
import TestSupport
import XCTest

/// A process whose address space is limited (`ulimit -v`, as some shared hosts and containers set): the log's map
/// is a 64 GiB reservation of addresses, which every command had failed to open with "Cannot allocate memory (12);
/// see the LMDB message". It is now as big as the limit leaves room for, and grows as the log does.
final class AddressSpaceLimitTests: CLITestCase {
    /// `mailstore ARGS` run under `ulimit -v kib`, its status checked unless `status` is negative.
    @discardableResult
    func limited(_ kib: Int, _ args: [String], expect status: Int32 = 0, line: UInt = #line) throws -> ChildProcess.Result {
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let r = try ChildProcess.run("/bin/bash", ["-c", "ulimit -v \(kib) && exec \"$0\" \"$@\"",
                                                   BuiltProducts.executable("mailstore")] + args, environment: env)
        if status >= 0 {
            XCTAssertEqual(r.status, status, "mailstore \(args.joined(separator: " ")) under ulimit -v \(kib): \(r.stderr)",
                           line: line)
        }
        return r
    }

    func testEveryStepWorksUnderAnAddressSpaceLimit() throws {
        let limit = 4 << 20  // 4 GiB, in KiB
        try limited(limit, ["init"])
        _ = try generateCorpus(CorpusOptions(messages: 200, outputDirectory: dir.file("md"), seed: 7))
        try limited(limit, ["import", "--maildir", dir.file("md"), "--account", "demo", "--quiet"])
        let page = try limited(limit, ["project", "--view", "threads", "--account", "demo", "--limit", "5", "--json"])
        XCTAssertTrue(page.stdout.contains("\"threads\""), page.stdout)
        let found = try limited(limit, ["search", "*", "--output", "messages", "--limit", "1000", "--json"])
        XCTAssertEqual(found.stdout.components(separatedBy: "\"emailIds\"").count - 1, 200, found.stdout.prefix(300) + "")
        try limited(limit, ["replay"])
        let verified = try limited(limit, ["verify", "--views"])
        XCTAssertTrue(verified.stdout.contains("OK"), verified.stdout)
        // Unlimited again, the store opens with its whole map as before.
        try mailstore("verify")
    }

    /// Under any limit a command either works or says the limit and what to do (not "see the LMDB message"), and
    /// views a limit keeps from opening are not taken for damaged: they were thrown away and rebuilt from the log
    /// (or that rebuild failed the same way), where the limit, not the file, was the trouble.
    func testAnyLimitWorksOrSaysTheLimitAndKeepsTheViews() throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 50, outputDirectory: dir.file("md"), seed: 7))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        try mailstore("project", "--view", "threads", "--account", "demo")
        let current = try String(contentsOfFile: store + "/views/CURRENT", encoding: .utf8)
        var refused = 0
        var worked = 0
        for kib in [150_000, 200_000, 250_000, 300_000, 350_000, 400_000, 450_000, 500_000, 700_000, 2_000_000] {
            let r = try limited(kib, ["project", "--view", "threads", "--account", "demo"], expect: -1)
            if r.status == 0 {
                worked += 1
                continue
            }
            refused += 1
            XCTAssertEqual(r.status, 3, "ulimit -v \(kib): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("address-space limit") && r.stderr.contains("ulimit -v unlimited"),
                          "ulimit -v \(kib): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("see the LMDB message") || r.stderr.contains("rebuilding"), "ulimit -v \(kib): \(r.stderr)")
        }
        XCTAssertGreaterThan(refused, 0, "150 MB leaves no room for the log's map")
        XCTAssertGreaterThan(worked, 0, "2 GB does")
        XCTAssertEqual(try String(contentsOfFile: store + "/views/CURRENT", encoding: .utf8), current, "no rebuild")
        try mailstore("verify", "--views")
    }

    /// A file-size limit (`ulimit -f`) the log reaches: the import fails saying the limit (exit 3), not killed by
    /// SIGXFSZ without a word, nor "Input/output error; see the LMDB message"; nothing stored is lost.
    func testAFileSizeLimitIsSaidAndLosesNothing() throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 400, outputDirectory: dir.file("md"), seed: 7))
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let r = try ChildProcess.run("/bin/bash", ["-c", "ulimit -f 1024 && exec \"$0\" \"$@\"", BuiltProducts.executable("mailstore"),
                                                   "import", "--maildir", dir.file("md"), "--account", "demo", "--quiet"], environment: env)
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("file-size limit (`ulimit -f`)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("see the LMDB message"), r.stderr)
        try mailstore("verify")
        // Without the limit the import completes where it stopped.
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        let found = try mailstore("search", "*", "--output", "messages", "--limit", "1000", "--json")
        XCTAssertEqual(found.stdout.components(separatedBy: "\"emailIds\"").count - 1, 400)
    }
}
