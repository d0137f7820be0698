import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// One sync of an account at a time, across processes: the account's sync lock.
final class SyncLockTests: SyncTestCase {
    /// The events of `type` per stream.
    private func countByStream(_ type: EventType) throws -> [String: Int] {
        var out: [String: Int] = [:]
        try store.log.scan(filter: ScanFilter(types: [type])) { ev in
            out[ev.envelope.stream, default: 0] += 1
            return true
        }
        return out
    }

    private func checkpointsOfEmptyFolders() -> Set<Int> {
        let counts = (try? countByStream(.folderSyncCheckpointed)) ?? [:]
        return Set(counts.filter { !$0.key.hasSuffix("/INBOX") && !$0.key.hasSuffix("/Projects") }.values)
    }

    /// Two `mailstore sync` processes started together: both succeed, one after the other, and the log holds
    /// each folder's `FolderDiscovered` once and the checkpoints of one sync only.
    func testTwoConcurrentSyncsOfOneAccountRecordEachFolderOnce() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", (0..<40).map { (id: "m\($0)", subject: "Message \($0)", parent: nil, flags: [String]()) }, via: c)
        try fill("Projects", (0..<10).map { (id: "p\($0)", subject: "Project \($0)", parent: nil, flags: ["\\Seen"]) }, via: c)
        try addAccount()
        views = nil
        store = nil
        for _ in 0..<3 {
            let args = ["--account", accountName, "--batch-messages", "7"]
            let a = try startSync(args), b = try startSync(args)
            a.waitUntilExit()
            b.waitUntilExit()
            XCTAssertEqual(a.terminationStatus, 0)
            XCTAssertEqual(b.terminationStatus, 0)
        }
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        let discovered = try countByStream(.folderDiscovered)
        XCTAssertFalse(discovered.isEmpty)
        XCTAssertEqual(checkpointsOfEmptyFolders(), [1])
        for (stream, n) in discovered { XCTAssertEqual(n, 1, "FolderDiscovered in \(stream)") }
        // One sync's worth: the folder's state once (as every empty folder has), then one per batch of 7
        // (40 messages in INBOX make 6 batches, 10 in Projects make 2).
        let checkpoints = try countByStream(.folderSyncCheckpointed)
        XCTAssertEqual(checkpoints["folder/\(accountName)/INBOX"], 1 + 6, "\(checkpoints)")
        XCTAssertEqual(checkpoints["folder/\(accountName)/Projects"], 1 + 2, "\(checkpoints)")
        XCTAssertEqual(try receivedEvents(), 50)
        try assertViewsMatchServer()
    }

    /// A sync that cannot get the lock within its wait says who holds it and changes nothing.
    func testASyncThatCannotGetTheLockSaysWhoHoldsIt() throws {
        try addAccount()
        let held = try AccountLock(store: store.directory, kind: "sync", account: accountName, waitSeconds: 0)
        defer { held.release() }
        let head = try store.log.head().sequence
        guard let account = try views.account(named: accountName)?.settings else { return XCTFail("no account") }
        let engine = try SyncEngine(store: store, account: account)
        engine.lockWaitSeconds = 0.2
        XCTAssertThrowsError(try engine.run()) { error in
            XCTAssertEqual(error as? AccountLockError,
                           .held(kind: "sync", account: accountName, holder: getpid(), waitedSeconds: 0.2))
            XCTAssertTrue("\(error)".contains("process \(getpid()) is running sync for account \"test\""), "\(error)")
        }
        XCTAssertEqual(try store.log.head().sequence, head, "nothing was appended")
        held.release()
        XCTAssertNoThrow(try engine.run())
    }
}
