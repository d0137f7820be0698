import EventLog
import Foundation
import IMAPClient
import MailStore
import TestSupport
import XCTest

/// A folder the server refuses (IMAP ACL `l`: listed, not readable; real Dovecot) stops neither the account's sync nor
/// a watch: it is skipped with a warning and the other folders synced (Junk syncs before the Inbox: the Inbox's new
/// mail had never arrived, and a watch had ended at once). An authentication failure still ends a watch.
final class RefusedFolderTests: SyncTestCase {
    /// Adds the account, syncs once with every folder readable, then takes the read right on Junk.
    private func syncThenRefuseJunk() throws {
        try addAccount()
        try sync()
        try imap.readOnly(user: user, folder: path("Junk"), rights: "l")
    }

    /// Waits up to 60 s for the Inbox to hold `count` copies (or `watch` to end); true when it does.
    private func waitForInbox(_ count: Int, _ watch: WatchRun? = nil) throws -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && watch?.failure.withLock({ $0 }) == nil {
            if try views.syncedCount(account: accountName, folder: "INBOX") == count { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return try views.syncedCount(account: accountName, folder: "INBOX") == count
    }

    func testAFolderTheServerRefusesIsSkippedAndTheOthersSynced() throws {
        let c = try server()
        defer { c.logout() }
        try syncThenRefuseJunk()
        try fill("INBOX", [(id: "after", subject: "After", parent: nil, flags: [])], via: c)
        views = nil
        store = nil
        let r = try mailstore(["sync", "--json"], expect: 5)
        XCTAssertTrue(r.stderr.contains("warning: test: folder \"\(path("Junk"))\" not synced: IMAP EXAMINE failed (NO): "), r.stderr)
        XCTAssertTrue(r.stderr.contains("error: test: 1 folder not synced (\(path("Junk")))"), r.stderr)
        XCTAssertFalse(r.stderr.contains(".;"), "no double punctuation: \(r.stderr)")
        XCTAssertTrue(r.stdout.contains("\"failedFolders\":[{\"error\":\"IMAP EXAMINE failed (NO): "), r.stdout)
        XCTAssertTrue(r.stdout.contains("\"folder\":\"\(path("Junk"))\"}]"), r.stdout)
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "INBOX"), 1, "the Inbox's new mail arrived")
        XCTAssertTrue(try views.folders(account: accountName).contains { $0.path == path("Junk") },
                      "a refusal alone does not record the folder removed")
        // Readable again: the next sync goes through.
        try imap.readWrite(user: user, folder: path("Junk"))
        XCTAssertEqual(try sync().failedFolders, [])
    }

    func testAWatchGoesOnPastARefusedFolderAndTellsItOnce() throws {
        let c = try server()
        defer { c.logout() }
        try syncThenRefuseJunk()
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        // Every folder polled at every look for local work (2 s): Junk is refused at each try that its backoff allows.
        let watcher = SyncWatcher(engine: engine, idleRefresh: 2, pollInterval: 1)
        let refused = Locked<[String]>([])
        watcher.onFolderRefused = { f, _, _, _ in refused.withLock { $0.append(f.folder) } }
        let watch = WatchRun(watcher)
        try fill("INBOX", [(id: "during", subject: "During", parent: nil, flags: [])], via: c)
        let arrived = try waitForInbox(1, watch)
        // A few more polls: the refusal is not told again.
        Thread.sleep(forTimeInterval: 5)
        XCTAssertTrue(watch.stop(), "the watch stopped")
        XCTAssertNil(watch.failure.withLock { $0 }, "the watch went on")
        XCTAssertTrue(arrived, "the Inbox's new mail arrived")
        XCTAssertEqual(refused.withLock { $0 }, [path("Junk")], "told once")
        engine.disconnect()
    }

    /// The watch still ends on wrong credentials: no new session can fix them.
    func testAWatchEndsOnAnAuthenticationFailure() throws {
        let wrong = dir.file("wrong")
        try Data("not-the-password".utf8).write(to: URL(fileURLWithPath: wrong))
        chmod(wrong, 0o600)
        try store.addAccount(AccountSettings(name: accountName, email: user, host: imap.host, port: imap.tlsPort, security: "tls",
                                             credential: .file(wrong), caFile: imap.caFile))
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        let watch = WatchRun(SyncWatcher(engine: engine, idleRefresh: 2, pollInterval: 1000))
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && watch.failure.withLock({ $0 }) == nil { Thread.sleep(forTimeInterval: 0.1) }
        let failure = watch.failure.withLock { $0 }
        XCTAssertTrue(watch.stop(), "the watch ended")
        guard case SyncError.server(.authenticationFailed)? = failure else {
            return XCTFail("the watch ended with an authentication failure: \(String(describing: failure))")
        }
        XCTAssertEqual(watch.retries.withLock { $0 }, 0, "no reconnect")
    }
}
