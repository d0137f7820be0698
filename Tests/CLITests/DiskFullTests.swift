import CorpusGenerator
import EventLog
import EventModel
import Foundation
import LMDB
import TestSupport
import XCTest

/// A disk that fills up mid-import: a clear error, the store intact, and the rerun after freeing space
/// completes with nothing lost or duplicated. Runs on a small tmpfs (skipped where mounting is not allowed).
final class DiskFullTests: CLITestCase {
    /// An mbox of `count` messages of about 3 KB each, of hardly compressible (seeded random) text.
    static func mbox(count: Int) -> String {
        var rng = SplitMix64(seed: 42)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        for i in 0..<count {
            out += "From sender@example.com Mon Jan  1 00:00:00 2024\n"
            out += "From: Sender <sender@example.com>\nSubject: filler \(i)\nMessage-ID: <fill\(i)@example.com>\n\n"
            for _ in 0..<40 {
                out += String((0..<76).map { _ in alphabet[Int(rng.next() % 64)] }) + "\n"
            }
            out += "\n"
        }
        return out
    }

    /// A small tmpfs of `megabytes` (skipped where mounting is not allowed, outside CI: CI can mount, so a failure
    /// stands), the store folder in it, and a runner of `mailstore` on that store (`MAILSTORE_HOME`).
    func storeOnSmallFilesystem(megabytes: Int) throws -> (fs: SmallFilesystem, home: String, run: ([String]) throws -> ChildProcess.Result) {
        let fs: SmallFilesystem
        do { fs = try SmallFilesystem(megabytes: megabytes) } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw error }
            throw XCTSkip("\(error)")
        }
        let home = fs.path + "/store"
        let env = ProcessInfo.processInfo.environment.merging(["MAILSTORE_HOME": home]) { _, b in b }
        return (fs, home, { try ChildProcess.run(BuiltProducts.executable("mailstore"), $0, environment: env) })
    }

    func testAnImportThatFillsTheDiskFailsCleanlyAndTheRerunCompletes() throws {
        let (fs, home, run) = try storeOnSmallFilesystem(megabytes: 40)
        XCTAssertEqual(try run(["init"]).status, 0)
        let source = dir.file("fill.mbox")
        try Data(DiskFullTests.mbox(count: 3_000).utf8).write(to: URL(fileURLWithPath: source))
        // About 9 MB of mail in batches of 768 messages (the log takes ~5 KB a message, ~4 MB a batch), 8 MB of
        // room: the first batch is committed, the import stops partway.
        try fs.fill(leaving: 8_000_000)
        let full = try run(["import", "--mbox", source, "--json"])
        XCTAssertEqual(full.status, 3, full.stderr)
        XCTAssertTrue(full.stderr.contains("the disk is full: free space and run the command again"), full.stderr)
        let verify = try run(["verify"])
        XCTAssertEqual(verify.status, 0, "the log is intact after the failed import: \(verify.stdout) \(verify.stderr)")
        fs.free()
        let again = try run(["import", "--mbox", source, "--json"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        let imported = summary?["imported"] as? Int ?? -1, present = summary?["alreadyPresent"] as? Int ?? -1
        XCTAssertEqual(imported + present, 3_000, again.stdout)
        XCTAssertGreaterThan(present, 0, "the first run committed some batches before the disk filled")
        XCTAssertEqual(try run(["verify"]).status, 0)
        var options = Environment.Options()
        options.readOnly = true
        let log = try EventLog(store: StoreDirectory(path: home), options: options)
        var received = 0
        try log.scan(filter: ScanFilter(types: [.emailReceived])) { _ in
            received += 1
            return true
        }
        XCTAssertEqual(received, 3_000, "every message once")
    }

    /// An action whose event reached the log while the views could not fold it (the views file could not grow on a
    /// full disk) says it is recorded, done, not to be taken again; it had said "the action failed ... nothing of the
    /// failed write was stored" though the log had it (and the thread showed starred once space was freed). An action
    /// the log did not take says the disk is full.
    func testAnActionRecordedWhileTheViewsCannotGrowSaysItIsDone() throws {
        var recordedSeen = false
        for leaving in [64 << 10, 128 << 10] {
            let (fs, _, run) = try storeOnSmallFilesystem(megabytes: 60)
            func head() throws -> String { try run(["log", "--last", "1", "--json"]).stdout }
            XCTAssertEqual(try run(["init"]).status, 0)
            let source = dir.file("actions.mbox")
            try Data(DiskFullTests.mbox(count: 300).utf8).write(to: URL(fileURLWithPath: source))
            XCTAssertEqual(try run(["import", "--mbox", source, "--folder", "INBOX", "--quiet"]).status, 0)
            let listed = try run(["project", "--view", "threads", "--all", "--json"]).stdout
            let page = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])
            let ids = (page["threads"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            XCTAssertEqual(ids.count, 300)
            let idFile = dir.file("ids-\(leaving)")
            try Data(ids.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: idFile))
            try fs.fill(leaving: leaving)
            for i in 0..<30 {
                let before = try head()
                let r = try run([i % 2 == 0 ? "star" : "unstar", "--ids-from", idFile])
                guard r.status != 0 else { continue }
                XCTAssertEqual(r.status, 3, r.stderr)
                if try head() != before {
                    recordedSeen = true
                    XCTAssertTrue(r.stderr.contains("the action is recorded in the log") && r.stderr.contains("do not do it again")
                                  && !r.stderr.contains("failed write was stored") && !r.stderr.contains("the action failed"), r.stderr)
                    // The disk still full, the views behind the log: the thread list is shown as it stands, with a note
                    // (every read command had failed, exit 3).
                    let list = try run(["project", "--view", "threads", "--all", "--json"])
                    XCTAssertEqual(list.status, 0, list.stderr)
                    XCTAssertTrue(list.stderr.contains("cannot be brought up to date: the disk is full"), list.stderr)
                    let shown = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
                    XCTAssertEqual((shown?["threads"] as? [[String: Any]])?.count, 300)
                } else {
                    XCTAssertTrue(r.stderr.contains("the disk is full"), r.stderr)
                }
                break
            }
            // Once space is freed the action shows: the next command folds it in.
            fs.free()
            XCTAssertEqual(try run(["verify", "--views"]).status, 0)
        }
        XCTAssertTrue(recordedSeen, "an action reached the log while the views could not grow")
    }

    /// Views to build anew (the folder deleted, or a store restored from a backup, which has none) on a disk with no
    /// room left: a clear "disk is full", not a crash in LMDB telling the user a store file is damaged (its new lock
    /// file, extended sparse and written through a map, was SIGBUS); reading the log goes on.
    func testViewsToBuildOnAFullDiskSayTheDiskIsFull() throws {
        let (fs, home, run) = try storeOnSmallFilesystem(megabytes: 16)
        XCTAssertEqual(try run(["init"]).status, 0)
        let source = dir.file("few.mbox")
        try Data(DiskFullTests.mbox(count: 20).utf8).write(to: URL(fileURLWithPath: source))
        XCTAssertEqual(try run(["import", "--mbox", source, "--folder", "INBOX", "--quiet"]).status, 0)
        try FileManager.default.removeItem(atPath: home + "/views")
        try fs.fill(leaving: 0)
        for args in [["project", "--view", "folders"], ["account", "list"], ["verify", "--views"]] {
            let r = try run(args)
            XCTAssertEqual(r.status, 3, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("the disk is full"), "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("crashed") || r.stdout.contains("crashed"), "\(args): \(r.stderr)")
        }
        XCTAssertEqual(try run(["log", "--last", "1"]).status, 0)
        XCTAssertEqual(try run(["verify"]).status, 0)
        fs.free()
        let listed = try run(["project", "--view", "threads", "--all"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("filler 19"), listed.stdout)
    }

    /// `verify --views` on a full disk with the views behind the log (mail imported since they were last read): the
    /// views cannot be brought up to date, which it says (exit 3, the disk is full), and nothing crashes. A growth of
    /// the views' map refused for want of room had left the map's old address ranges to the next release of its
    /// resident pages (`MADV_DONTNEED`), which zeroed what the kernel had put there since: the heap (`free(): invalid
    /// pointer`, SIGABRT) or code pointers (SIGSEGV), reported as a damaged store file. Then it had compared the views
    /// as they stood and said "OK" with thousands of events missing from them.
    func testVerifyViewsOnAFullDiskWithTheViewsBehindSaysTheDiskIsFull() throws {
        let (fs, _, run) = try storeOnSmallFilesystem(megabytes: 100)
        XCTAssertEqual(try run(["init"]).status, 0)
        let first = dir.file("first.mbox"), second = dir.file("second.mbox")
        try Data(DiskFullTests.mbox(count: 1_500).utf8).write(to: URL(fileURLWithPath: first))
        try Data(DiskFullTests.mbox(count: 1_500).utf8).write(to: URL(fileURLWithPath: second))
        XCTAssertEqual(try run(["import", "--mbox", first, "--folder", "INBOX", "--quiet"]).status, 0)
        XCTAssertEqual(try run(["project", "--view", "threads", "--limit", "1"]).status, 0)
        XCTAssertEqual(try run(["import", "--mbox", second, "--folder", "INBOX", "--account", "other", "--quiet"]).status, 0)
        try fs.fill(leaving: 4 << 20)
        let r = try run(["verify", "--views", "--quiet"])
        XCTAssertEqual(r.status, 3, "\(r.stdout) \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("bringing the views up to the log's end") && r.stderr.contains("the disk is full"), r.stderr)
        XCTAssertFalse(r.stdout.contains("OK") || r.stdout.contains("crashed"), r.stdout)
        fs.free()
        let again = try run(["verify", "--views", "--quiet"])
        XCTAssertEqual(again.status, 0, "\(again.stdout) \(again.stderr)")
    }
}
