import EventLog
import EventModel
import Foundation
import LMDB
import TestSupport
import XCTest

/// `mailstore backup DEST`: its report, exit codes, and the backup used as a store.
final class BackupCommandTests: CLITestCase {
    private func importSample() throws {
        try mailstore("init")
        var mbox = ""
        for i in 0..<5 {
            mbox += "From sender@example.com Mon Nov 16 10:00:00 2026\nFrom: Sender <sender@example.com>\nTo: you@example.com\n"
            mbox += "Subject: message \(i)\nMessage-ID: <bk\(i)@example.com>\nDate: Mon, 16 Nov 2026 10:00:0\(i) +0000\n\nBody \(i).\n\n"
        }
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: dir.file("in.mbox")))
        try mailstore("import", "--mbox", dir.file("in.mbox"), "--account", "demo", "--quiet")
    }

    func testABackupReportsVerifiesAndServesAsAStore() throws {
        try importSample()
        let out = try mailstore("backup", dir.file("bk"), "--json").stdout
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        XCTAssertEqual(obj["destination"] as? String, dir.file("bk"))
        XCTAssertEqual(obj["clean"] as? Bool, true)
        XCTAssertEqual(obj["verified"] as? Bool, true)
        XCTAssertEqual(obj["blobs"] as? Int, 5)
        XCTAssertEqual(obj["secretsLeftOut"] as? Int, 0)
        let head = try XCTUnwrap(obj["head"] as? Int)
        XCTAssertEqual(obj["events"] as? Int, head)
        for key in ["chain", "sourceFileBytes", "copyFileBytes", "secretsCopied", "problems", "copySeconds", "verifySeconds"] {
            XCTAssertNotNil(obj[key], key)
        }
        // The same log, read through --store; its views are built on first use.
        XCTAssertEqual(try mailstore("log", "--store", dir.file("bk"), "--json").stdout, try mailstore("log", "--json").stdout)
        let threads = try mailstore("project", "--store", dir.file("bk"), "--view", "threads", "--account", "demo", "--folder", "in").stdout
        XCTAssertTrue(threads.contains("message 4"), threads)
        try mailstore("verify", "--store", dir.file("bk"))

        // Again into the same folder: refused (exit 2), the backup untouched; into the store: wrong arguments.
        let again = try mailstore("backup", dir.file("bk"), expect: 2)
        XCTAssertTrue(again.stderr.contains("exists and is not an empty folder"), again.stderr)
        try mailstore("verify", "--store", dir.file("bk"))
        let inside = try mailstore("backup", store + "/bk", expect: 64)
        XCTAssertTrue(inside.stderr.contains("inside the store folder"), inside.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/bk"))
    }

    /// A destination that cannot be one is exit 64 and says why, without the usage text (the arguments' form is
    /// right); one that cannot be written in (a read-only filesystem) is exit 3 with the errno and what to do.
    func testBadDestinationsSayWhyWithTheirExitCodeAndNoUsage() throws {
        try importSample()
        for (dest, said) in [(store + "/bk", "is inside the store folder"), (dir.file("missing/bk"), "its parent folder")] {
            let r = try mailstore("backup", dest, "--quiet", expect: 64)
            XCTAssertTrue(r.stderr.contains(said), r.stderr)
            XCTAssertFalse(r.stderr.contains("Usage:"), r.stderr)
        }
        let ro = dir.file("ro")
        try FileManager.default.createDirectory(atPath: ro, withIntermediateDirectories: true)
        guard let mount = ReadOnlyMount(ro) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("cannot make a read-only bind mount") }
            throw XCTSkip("cannot make a read-only bind mount (needs root; CI=true makes this a failure)")
        }
        defer { withExtendedLifetime(mount) {} }
        let r = try mailstore("backup", ro + "/bk", "--quiet", expect: 3)
        XCTAssertTrue(r.stderr.contains("cannot write the backup in \(ro)/bk: mkdir: Read-only file system (EROFS)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("Usage:"), r.stderr)
    }

    /// `mailstore backup` killed at any moment: the same command run again completes (or the killed one had), and the
    /// backup verifies.
    func testABackupKilledAtAnyMomentIsCompletedByTheNextRun() throws {
        try mailstore("init")
        var mbox = ""
        for i in 0..<2_000 {
            mbox += "From s@example.com Mon Nov 16 10:00:00 2026\nFrom: S <s@example.com>\nSubject: m \(i)\nMessage-ID: <k\(i)@example.com>\n\n"
            mbox += String(repeating: "line \(i) of some text to make the log bigger\n", count: 40) + "\n"
        }
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: dir.file("k.mbox")))
        try mailstore("import", "--mbox", dir.file("k.mbox"), "--quiet")
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        var killedMidway = 0
        for (i, delay) in [0, 10_000, 20_000, 25_000, 30_000, 35_000, 40_000, 50_000, 60_000, 80_000].enumerated() {
            let dest = dir.file("bk\(i)")
            let p = Process()
            p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
            p.arguments = ["backup", dest, "--quiet"]
            p.environment = env
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(useconds_t(delay))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let finished = FileManager.default.fileExists(atPath: dest + "/FORMAT")
                && !FileManager.default.fileExists(atPath: dest + "/.mailstore-backup-unfinished")
            if !finished && FileManager.default.fileExists(atPath: dest + "/.mailstore-backup-unfinished") {
                killedMidway += 1
                let again = try mailstore("backup", dest, "--quiet")
                XCTAssertTrue(again.stdout.contains("held a backup killed before it finished: cleared first"), again.stdout)
            } else if !finished {
                try mailstore("backup", dest, "--quiet")
            }
            try mailstore("verify", "--store", dest)
        }
        print("backups killed midway: \(killedMidway) of 10")
    }

    /// A backup killed while it verifies its copy leaves no `DEST` that looks finished: no `FORMAT` or `log/` in it,
    /// the unverified copy (0700) beside the unfinished marker; the next backup into it clears that and finishes.
    func testABackupKilledWhileVerifyingLeavesNoFinishedLookingBackup() throws {
        try importSample()
        let dest = dir.file("bk")
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        env["MAILSTORE_FAILPOINT"] = "backup-verifying"
        let killed = try ChildProcess.run(BuiltProducts.executable("mailstore"), ["backup", dest, "--quiet"], environment: env, stdin: nil)
        XCTAssertEqual(killed.status, 86, killed.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dest).sorted(), [".mailstore-backup-unfinished", "unverified"])
        var st = stat()
        XCTAssertEqual(lstat(dest + "/unverified", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        // Not "no mailstore: run init" (which then refused the folder): what it is and what to do.
        for command in [["log"], ["verify"], ["init"]] {
            let notAStore = try mailstore(command + ["--store", dest], expect: 2)
            XCTAssertTrue(notAStore.stderr.contains("\(dest) holds a backup that did not finish: run the backup again "
                                                    + "(`mailstore backup --store SOURCE \(dest)`) or remove it"), notAStore.stderr)
        }

        let again = try mailstore("backup", dest, "--quiet")
        XCTAssertTrue(again.stdout.contains("held a backup killed before it finished: cleared first"), again.stdout)
        XCTAssertTrue(again.stdout.contains("Backed up to \(dest): "), again.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dest).sorted(), ["FORMAT", "log"])
        try mailstore("verify", "--store", dest)
    }

    func testTheTextReportIsSanitisedAndSaysWhatWasLeftOut() throws {
        try importSample()
        try FileManager.default.createDirectory(atPath: store + "/secrets", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: store + "/secrets/demo.oauth"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: dir.file("elsewhere.oauth")))
        XCTAssertEqual(symlink(dir.file("elsewhere.oauth"), store + "/secrets/b.oauth"), 0)
        try addAccount("work")
        let hostile = dir.file("bk\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J")
        let r = try mailstore("backup", hostile, "--quiet")
        XCTAssertFalse(r.stdout.contains("\u{1B}") || r.stdout.contains("\u{07}"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Verified: "), r.stdout)
        XCTAssertTrue(r.stdout.contains("1 OAuth token file (--include-secrets copies them)"), r.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: hostile + "/secrets"))
        let skipped = try mailstore("backup", dir.file("bk2"), "--no-verify", "--include-secrets").stdout
        XCTAssertTrue(skipped.contains("Not verified (--no-verify)"), skipped)
        XCTAssertTrue(skipped.contains("Copied 1 OAuth token file"), skipped)
        // What was left out is said: a link in secrets/ (a warning each), and the accounts whose password file is
        // elsewhere (named, never the secret).
        let warned = try mailstore("backup", dir.file("bk3"), "--quiet", "--include-secrets")
        XCTAssertTrue(warned.stderr.contains("mailstore: warning: secrets/b.oauth was not copied: it is a symbolic link"), warned.stderr)
        XCTAssertTrue(warned.stdout.contains("Not in the backup: the secret files of 1 account kept outside the store (work): "
                                             + "a store restored from it reads them from the same paths"), warned.stdout)
    }
    /// Accounts whose secret is outside the store that cannot be listed (the log's record of one gone) are said to be
    /// unlisted, with why, on stderr and in the JSON, not left unnamed without a word.
    func testAccountsWithSecretsOutsideThatCannotBeListedAreSaidSo() throws {
        try importSample()
        try addAccount("work")
        try addAccount("home", email: "dan@example.com")
        do {
            let log = try EventLog(store: StoreDirectory(path: store))
            var added: UInt64?
            try log.scan(filter: ScanFilter(stream: .account("work"))) { added = $0.envelope.sequence; return true }
            let sequence = try XCTUnwrap(added)
            let key = withUnsafeBytes(of: sequence.bigEndian) { Array($0) }
            let events = try log.environment.openDatabase("events")
            XCTAssertTrue(try log.environment.write { txn in try txn.delete(events, key: key) })
        }
        let r = try mailstore("backup", dir.file("bk"), "--quiet", expect: 1)
        XCTAssertTrue(r.stderr.contains("mailstore: warning: the accounts whose secret files are kept outside the store could not be listed ("), r.stderr)
        XCTAssertTrue(r.stderr.contains("the stream index names a missing event"), r.stderr)
        let json = try mailstore("backup", dir.file("bk2"), "--json", expect: 1)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertTrue((object["accountsWithSecretsOutsideUnlisted"] as? String)?.contains("missing event") == true, json.stdout)
        XCTAssertEqual(object["accountsWithSecretsOutside"] as? [String], [])
    }
}
