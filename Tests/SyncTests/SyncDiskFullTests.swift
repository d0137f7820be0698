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
        let fs: SmallFilesystem
        do { fs = try SmallFilesystem(megabytes: 16) } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw error }  // CI can mount: a failure stands
            throw XCTSkip("\(error)")
        }
        let c = try server()
        defer { c.logout() }
        // Seeded filler text that zstd cannot shrink much.
        var rng = SplitMix64(seed: 7)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let body = { (i: Int) in
            (0..<40).map { _ in String((0..<76).map { _ in alphabet[Int(rng.next() % 64)] }) }.joined(separator: "\r\n") + " \(i)"
        }
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
}
