import CorpusGenerator
import Foundation
import TestSupport
import Views
import MailStore
import XCTest

/// Several `mailstore` processes at once on one store: replays, catch-ups (imports then reads), and
/// readers. Every one must succeed, builds serialize, readers are served throughout, and the views end
/// equal to a rebuild.
final class ConcurrencyStressTests: CLITestCase {
    func testReplaysCatchUpsAndReadersInSeveralProcessesAtOnce() throws {
        try mailstore("init")
        _ = try generateCorpus(CorpusOptions(messages: 600, outputDirectory: dir.file("md"), seed: 3))
        _ = try generateCorpus(CorpusOptions(messages: 200, outputDirectory: dir.file("more"), seed: 4))
        try mailstore("import", "--maildir", dir.file("md"), "--account", "demo", "--quiet")
        var environment = ProcessInfo.processInfo.environment
        environment["MAILSTORE_HOME"] = store
        let env = environment
        let binary = BuiltProducts.executable("mailstore")
        let failures = Locked<[String]>([])
        func loop(_ name: String, _ args: [String], times: Int) -> BackgroundTask {
            BackgroundTask {
                for i in 0..<times {
                    let r = try ChildProcess.run(binary, args, environment: env)
                    if r.status != 0 { failures.withLock { $0.append("\(name) #\(i) exit \(r.status): \(r.stderr)") } }
                }
            }
        }
        let tasks = [
            loop("replay A", ["replay", "--quiet"], times: 3),
            loop("replay B", ["replay", "--quiet"], times: 3),
            loop("import (catch-up)", ["import", "--maildir", dir.file("more"), "--account", "other", "--quiet"], times: 2),
            loop("project", ["project", "--view", "threads", "--account", "demo", "--limit", "3"], times: 12),
            loop("account list", ["account", "list"], times: 12),
            loop("unread", ["project", "--view", "unread", "--account", "demo", "--json"], times: 12),
        ]
        for t in tasks { try t.wait(seconds: 400) }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let verify = try mailstore("verify", "--views")
        XCTAssertTrue(verify.stdout.contains("OK") || verify.stdout.lowercased().contains("equal"), verify.stdout)
        let gens = try FileManager.default.contentsOfDirectory(atPath: store + "/views").filter { $0.hasPrefix("gen-") }
        XCTAssertEqual(gens.count, 1, "one generation left: \(gens)")
    }
}

/// Quarantined events show in `stats` and make `verify --views` fail with what to do.
final class QuarantineReportTests: CLITestCase {
    func testStatsAndVerifyReportQuarantinedEvents() throws {
        try mailstore("init")
        let md = dir.file("md")
        for sub in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: md + "/" + sub, withIntermediateDirectories: true) }
        for (i, subject) in ["hello", "boom", "again"].enumerated() {
            let text = "Message-ID: <q\(i)@x>\r\nFrom: a@example.com\r\nSubject: \(subject)\r\nDate: Mon, 2 Sep 2024 10:0\(i):00 +0000\r\n\r\nhi\r\n"
            XCTAssertTrue(FileManager.default.createFile(atPath: md + "/cur/\(i):2,", contents: Data(text.utf8)))
        }
        try mailstore("import", "--maildir", md, "--account", "a", "--quiet")
        // A build of the views with a bug in the threads projector.
        let s = try MailStore.open(at: store)
        let catalog = ViewCatalog([FlakyThreadsProjector.self] + ViewCatalog.all.filter { $0.name != .threads })
        _ = try ViewStore.replay(store: s.directory, log: s.log, catalog: catalog)
        let stats = try mailstore("stats")
        XCTAssertTrue(stats.stdout.contains("Quarantined events"), stats.stdout)
        XCTAssertTrue(stats.stdout.contains("threads: injected bug"), stats.stdout)
        let verify = try mailstore("verify", "--views", expect: 1)
        XCTAssertTrue(verify.stdout.contains("QUARANTINED event"), verify.stdout)
        XCTAssertTrue(verify.stderr.contains("mailstore replay"), verify.stderr)
        // A replay by this (fixed) build folds it, and verify is clean again.
        try mailstore("replay", "--quiet")
        try mailstore("verify", "--views")
    }
}
