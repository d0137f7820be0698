import CorpusGenerator
import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import LMDB
import MailStore
import TestSupport
import Views
import XCTest

/// A disk that fills up mid-sync: a clear error, the store intact, and the rerun after freeing space
/// converges to the server with nothing lost or duplicated. Runs on a small tmpfs (skipped where mounting
/// is not allowed).
final class SyncDiskFullTests: SyncTestCase {
    func testASyncThatFillsTheDiskFailsCleanlyAndTheRerunConverges() throws {
        let fs = try smallFilesystem()
        let c = try server()
        defer { c.logout() }
        let body = SyncDiskFullTests.filler(seed: 7)
        for i in 0..<600 {
            _ = try c.append(to: .inbox, message: SyncTestCase.message("full\(i)", subject: "Filler \(i)", day: 1 + i % 27, body: body(i)),
                             flags: i % 3 == 0 ? ["\\Seen"] : [])
        }
        views = nil
        store = nil
        let home = fs.path + "/store"
        let env = ["MAILSTORE_HOME": home]
        try mailstore(["init"], env: env)
        try mailstore(["account", "add", accountName, "--email", user!, "--host", dovecot.host, "--port", "\(dovecot.tlsPort)",
                       "--security", "tls", "--password-file", passwordFile!, "--ca-file", dovecot.caFile], env: env)
        // About 2 MB of mail (the log and views take about twice that), 2 MB of room: the sync stops partway.
        try fs.fill(leaving: 2_000_000)
        let full = try mailstore(["sync", "--quiet", "--batch-messages", "50"], env: env, expect: 3)
        XCTAssertTrue(full.stderr.contains("the disk is full: free space and run the command again"), full.stderr)
        try mailstore(["verify"], env: env)
        fs.free()
        try mailstore(["sync", "--quiet", "--batch-messages", "50"], env: env)
        try mailstore(["verify"], env: env)
        try mailstore(["verify", "--views"], env: env)
        store = try MailStore.open(at: home)
        views = try store.openViews()
        XCTAssertEqual(try receivedEvents(), 600, "every message once")
        try assertViewsMatchServer()
        views = nil
        store = nil
    }

    /// A watch whose sync meets a full disk waits and tries again (saying why), and once space is freed the mail that
    /// came meanwhile arrives: it had ended for good (exit 3), though only authentication, certificate and
    /// configuration errors end a watch.
    func testAWatchWaitsOutAFullDiskAndGoesOn() throws {
        let fs = try smallFilesystem()
        let c = try server()
        defer { c.logout() }
        let body = SyncDiskFullTests.filler(seed: 11)
        _ = try c.append(to: .inbox, message: SyncTestCase.message("first", subject: "First", day: 1, body: "hello"), flags: [])
        views = nil
        store = nil
        let home = fs.path + "/store"
        let env = ["MAILSTORE_HOME": home]
        try mailstore(["init"], env: env)
        try mailstore(["account", "add", accountName, "--email", user!, "--host", dovecot.host, "--port", "\(dovecot.tlsPort)",
                       "--security", "tls", "--password-file", passwordFile!, "--ca-file", dovecot.caFile], env: env)
        try mailstore(["sync", "--quiet"], env: env)
        let errors = dir.file("watch.err")
        XCTAssertTrue(FileManager.default.createFile(atPath: errors, contents: nil))
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        watch.arguments = ["sync", "--watch", "--account", accountName, "--idle-refresh", "2", "--poll-interval", "2"]
        watch.environment = environment.merging(env) { _, b in b }
        watch.standardOutput = FileHandle.nullDevice
        watch.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try watch.run()
        defer {
            if watch.isRunning { kill(watch.processIdentifier, SIGKILL) }
            watch.waitUntilExit()
        }
        usleep(2_000_000)
        try fs.fill(leaving: 0)
        for i in 0..<40 {
            _ = try c.append(to: .inbox, message: SyncTestCase.message("full\(i)", subject: "Filler \(i)", day: 2, body: body(i)), flags: [])
        }
        func waitFor(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
            let until = Date().addingTimeInterval(seconds)
            while Date() < until {
                if try condition() { return true }
                usleep(200_000)
            }
            return false
        }
        let said = waitFor(60) { (try? String(contentsOfFile: errors, encoding: .utf8))?.contains("the disk is full") == true }
        XCTAssertTrue(said, "the watch says the disk is full: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        usleep(1_000_000)
        XCTAssertTrue(watch.isRunning, "the watch goes on: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        fs.free()
        let arrived = try waitFor(90) {
            let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), ["log", "--type", "EmailReceived", "--json"],
                                         environment: environment.merging(env) { _, b in b })
            return r.stdout.split(separator: "\n").count >= 41
        }
        XCTAssertTrue(arrived, "the mail that came while the disk was full arrives once space is freed")
        XCTAssertTrue(watch.isRunning)
        kill(watch.processIdentifier, SIGKILL)
        watch.waitUntilExit()
        try mailstore(["verify"], env: env)
        try mailstore(["verify", "--views"], env: env)
    }

    /// A 16 MB tmpfs (skipped where mounting is not allowed, but not on CI, which can mount).
    private func smallFilesystem() throws -> SmallFilesystem {
        do { return try SmallFilesystem(megabytes: 16) } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw error }  // CI can mount: a failure stands
            throw XCTSkip("\(error)")
        }
    }

    /// Message `i`'s body: seeded filler text (40 lines of 76 base64 letters) that zstd cannot shrink much.
    private static func filler(seed: UInt64) -> (Int) -> String {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        return { i in
            (0..<40).map { _ in String((0..<76).map { _ in alphabet[Int(rng.next() % 64)] }) }.joined(separator: "\r\n") + " \(i)"
        }
    }
}
