import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// A resync of unchanged folders cost one EXAMINE per folder (10,000 folders: 27 s, at every poll of a watch), where
/// the STATUS that LIST-STATUS (RFC 5819) returns with the LIST tells they are unchanged (4.9 s for the same account).
final class ListStatusResyncTests: SyncTestCase {
    /// The client's commands of a sync (the trace's lines), by command name.
    private final class Commands: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        func reset() { lock.lock(); lines = []; lock.unlock() }
        /// The client's lines of `command`.
        func sent(_ command: String) -> [String] {
            lock.lock(); defer { lock.unlock() }
            return lines.filter { $0.hasPrefix("C: ") && $0.contains(" \(command) ") }
        }
    }

    /// (One collector for every traced sync: a traced connection left in the pool keeps its trace.)
    private let commands = Commands()

    private func tracedSync() throws -> SyncReport {
        commands.reset()
        let account = try XCTUnwrap(try views.account(named: accountName)?.settings)
        let commands = self.commands
        return try SyncEngine(store: store, account: account, options: SyncOptions(trace: { commands.add($0) })).run()
    }

    func testResyncOfUnchangedFoldersSendsNoExamineAndChangedOnesAreStillSynced() throws {
        try addAccount()
        let c = try server()
        defer { c.logout() }
        XCTAssertTrue(c.has("LIST-STATUS") && c.has("CONDSTORE"), "the test server advertises LIST-STATUS and CONDSTORE")
        let names = (1...20).map { String(format: "F%02d", $0) }
        for (i, n) in names.enumerated() {
            try fill(n, [(id: "f\(i)", subject: "Folder \(i)", parent: nil, flags: [])], via: c)
        }
        try fill("Quiet", [], via: c)
        try sync()

        // Nothing changed: one LIST with the folders' STATUS, no EXAMINE, nothing recorded.
        let same = try tracedSync()
        XCTAssertEqual(commands.sent("EXAMINE"), [])
        XCTAssertEqual(commands.sent("LIST").filter { $0.contains("STATUS (") }.count, 1, "\(commands.sent("LIST"))")
        XCTAssertEqual(same.events, 0)
        XCTAssertTrue(same.failedFolders.isEmpty)

        // Another client sets a flag in one folder and adds a message to another: those two are examined and synced.
        _ = try c.select(MailboxName(path("F03")), readOnly: false)
        _ = try c.uidStore(UIDSet(1), .add, flags: ["\\Flagged"])
        try fill("F07", [(id: "late", subject: "Late", parent: nil, flags: [])], via: c)
        let changed = try tracedSync()
        XCTAssertEqual(commands.sent("EXAMINE").count, 2, "\(commands.sent("EXAMINE"))")
        XCTAssertEqual(changed.received, 1)
        XCTAssertEqual(changed.folders.reduce(0) { $0 + $1.flagsChanged }, 1)
        try assertViewsMatchServer()
        let rebuild = try views.compareWithRebuild()
        XCTAssertTrue(rebuild.differences.isEmpty, "verify --views: \(rebuild.differences)")
    }
}
