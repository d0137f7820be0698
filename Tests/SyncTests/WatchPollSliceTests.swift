import EventLog
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// A watch's poll of every folder is taken in slices between the IDLE's reads of the Inbox (real Dovecot): new Inbox
/// mail arriving while a poll of many folders is under way is synced before the poll ends (it had waited for every
/// folder: 16 s at 10,000 folders), and the poll still syncs each folder's change once, reported together at its end.
final class WatchPollSliceTests: SyncTestCase {
    func testInboxMailArrivingDuringAPollIsSyncedBeforeThePollEnds() throws {
        let c = try server()
        defer { c.logout() }
        let names = (0..<120).map { String(format: "P%03d", $0) }
        for name in names { try c.create(MailboxName(path(name))) }
        try addAccount()
        try sync()
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        // A poll at the first look for local work (2 s into the IDLE), in slices of 5 folders.
        let watcher = SyncWatcher(engine: engine, idleRefresh: 120, pollInterval: 1)
        watcher.pollSliceFolders = 5
        // Each report told: the messages it brought, by folder.
        let reports = Locked<[[String: Int]]>([])
        watcher.onReport = { r in
            reports.withLock { $0.append(Dictionary(r.folders.map { ($0.folder, $0.received) }, uniquingKeysWith: +)) }
        }
        // A new message in every folder once the watch's first sync is done (on the watch's thread, the test waiting
        // meanwhile): the first poll brings them, the watch sitting in IDLE on the Inbox.
        var filled = false
        watcher.onSessionSynced = { [self] in
            guard !filled else { return }
            filled = true
            for (i, name) in names.enumerated() {
                _ = try? c.append(to: MailboxName(path(name)), message: SyncTestCase.message("p\(i)", subject: "Poll \(i)"))
            }
        }
        let watch = WatchRun(watcher)
        defer { _ = watch.stop() }
        // The poll is under way once one of the folders' messages is stored.
        func polled() throws -> Int { try names.count { try views.syncedCount(account: accountName, folder: path($0)) == 1 } }
        var deadline = Date().addingTimeInterval(60)
        while try polled() == 0 && Date() < deadline && watch.failure.withLock({ $0 }) == nil { usleep(10_000) }
        XCTAssertGreaterThan(try polled(), 0, "the poll began")
        XCTAssertLessThan(try polled(), names.count, "and is under way")
        // New Inbox mail, and a folder the poll's LIST did not name (the next poll's).
        _ = try c.append(to: MailboxName("INBOX"), message: SyncTestCase.message("during", subject: "During the poll"))
        try fill("Late", [(id: "late", subject: "Late", parent: nil, flags: [])], via: c)
        // (The poll that brings the late folder's message is reported at its end, after its slice stored the message.)
        func done() throws -> Bool {
            try polled() == names.count && views.syncedCount(account: accountName, folder: "INBOX") == 1
                && views.syncedCount(account: accountName, folder: path("Late")) == 1
                && reports.withLock { $0.contains { $0[path("Late")] != nil } }
        }
        deadline = Date().addingTimeInterval(120)
        while try !done() && Date() < deadline && watch.failure.withLock({ $0 }) == nil { usleep(100_000) }
        XCTAssertTrue(watch.stop(), "the watch stopped")
        XCTAssertNil(watch.failure.withLock { $0 })
        XCTAssertEqual(watch.retries.withLock { $0 }, 0)
        XCTAssertTrue(try done(), "every folder's message, the Inbox's and the late folder's were synced and reported")
        let told = reports.withLock { $0 }
        let inbox = try XCTUnwrap(told.firstIndex { ($0["INBOX"] ?? 0) > 0 }, "the Inbox's message was reported: \(told)")
        let poll = try XCTUnwrap(told.firstIndex { $0.count >= names.count }, "the poll was reported: \(told)")
        XCTAssertLessThan(inbox, poll, "the Inbox's new mail was synced before the poll ended: \(told)")
        XCTAssertEqual(told[poll].filter { $0.value == 1 }.keys.sorted(), names.map(path).sorted(),
                       "the poll's report names each folder's message once")
        for name in names + ["Late"] {
            XCTAssertEqual(told.reduce(0) { $0 + ($1[path(name)] ?? 0) }, 1, "\(name)'s message was brought once")
        }
        XCTAssertEqual(told.reduce(0) { $0 + ($1["INBOX"] ?? 0) }, 1, "the Inbox's message was brought once")
        engine.disconnect()
    }
}
