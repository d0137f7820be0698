import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// A first sync of many empty folders: each had its checkpoint committed alone, one commit (an fdatasync) per folder
/// (10,000 folders: 160 s of a 187 s sync waiting on commits). Their checkpoints are committed together now.
final class GatheredCheckpointTests: SyncTestCase {
    /// Counts the log's appends (each one transaction, one commit): the log reads its clock once per append.
    private final class AppendCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func tick() { lock.lock(); n += 1; lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return n }
    }

    private func countingAppends() -> AppendCounter {
        let counter = AppendCounter()
        store.log.clock = { counter.tick(); return .now }
        return counter
    }

    func testFirstSyncOfManyEmptyFoldersCommitsTheirCheckpointsTogether() throws {
        try addAccount()
        let c = try server()
        defer { c.logout() }
        let empty = (1...300).map { String(format: "Empty%03d", $0) }
        for name in empty { try c.create(MailboxName(path(name))) }
        // One folder with mail among them: its batch commits as before.
        try fill("Mail", [(id: "m1", subject: "One", parent: nil, flags: []), (id: "m2", subject: "Two", parent: nil, flags: ["\\Seen"])], via: c)

        let appends = countingAppends()
        let report = try sync()
        XCTAssertTrue(report.failedFolders.isEmpty, "\(report.failedFolders)")
        XCTAssertEqual(report.received, 2)
        // The listing, the folder with mail, the Inbox's and the empty folders' checkpoints by 256: a handful, not 300.
        XCTAssertLessThanOrEqual(appends.count, 8, "one commit per empty folder")
        for name in empty {
            XCTAssertNotNil(try views.syncState(account: accountName, folder: path(name)), name)
        }
        try assertViewsMatchServer()
        let rebuild = try views.compareWithRebuild()
        XCTAssertTrue(rebuild.differences.isEmpty, "verify --views: \(rebuild.differences)")

        // Nothing changed: a resync appends nothing (each folder's state was recorded).
        let before = appends.count
        XCTAssertEqual(try sync().events, 0)
        XCTAssertEqual(appends.count, before)
    }
}
