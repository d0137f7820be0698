import EventLog
import MailStore
import SyncCore
import Views
import XCTest

/// A folder's fetch of new mail appends each batch as it comes and folds the views every
/// ``SyncEngine/viewFoldSeconds`` and at its end, not after every batch: each fold of a big store's views copies pages
/// all over their file, written back by the kernel again every ~30 s while folds go on (a first sync of 20,000
/// messages had written 2.4 times its views' size, of 50,000 3.5 times).
final class FetchViewFoldTests: SyncTestCase {
    /// 23 messages in batches of 5: five batches, the views folded once, at the fetch's end, and equal to the server then.
    func testAFetchFoldsTheViewsAtItsEndNotAfterEveryBatch() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", (1...23).map { (id: "f\($0)", subject: "Note \($0)", parent: String?.none, flags: [String]()) }, via: c)
        try addAccount()
        guard let account = try views.account(named: accountName)?.settings else { throw SyncError.noAccount(accountName) }
        let engine = try SyncEngine(store: store, account: account, options: SyncOptions(batchMessages: 5))
        engine.viewFoldSeconds = 3_600
        var behindAtBatches: [UInt64] = []
        let views = self.views!, log = store.log
        engine.progress = { folder, done, _ in
            guard folder == "INBOX", done > 0, let head = try? log.head().sequence,
                  let least = try? views.checkpoints().values.min() else { return }
            behindAtBatches.append(head - least)
        }
        let report = try engine.run()
        XCTAssertEqual(report.folders.first { $0.folder == "INBOX" }?.received, 23)
        XCTAssertEqual(behindAtBatches.count, 5, "one progress call a batch")
        XCTAssertTrue(behindAtBatches.allSatisfy { $0 > 0 }, "no batch folded while the fetch went on: \(behindAtBatches)")
        XCTAssertEqual(engine.fetchViewFolds, 1, "the views folded once, at the fetch's end")
        XCTAssertEqual(try views.checkpoints().values.min(), try log.head().sequence, "the views caught up when the run ends")
        try assertViewsMatchServer()
        XCTAssertEqual(try sync().events, 0)
    }

    /// With no interval every batch is folded as it is appended (what a watch's small fetches amount to).
    func testAFetchWithNoIntervalFoldsEveryBatch() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", (1...12).map { (id: "g\($0)", subject: "Note \($0)", parent: String?.none, flags: [String]()) }, via: c)
        try addAccount()
        guard let account = try views.account(named: accountName)?.settings else { throw SyncError.noAccount(accountName) }
        let engine = try SyncEngine(store: store, account: account, options: SyncOptions(batchMessages: 5))
        engine.viewFoldSeconds = 0
        let report = try engine.run()
        XCTAssertEqual(report.folders.first { $0.folder == "INBOX" }?.received, 12)
        XCTAssertEqual(engine.fetchViewFolds, 3, "batches of 5, 5 and 2, each folded")
        XCTAssertEqual(try views.checkpoints().values.min(), try store.log.head().sequence)
        try assertViewsMatchServer()
    }
}
