import EventLog
import EventModel
import Foundation
@testable import MailStore
import TestSupport
import XCTest

/// A server's refusal text is recorded bounded: an IMAP line may be a mebibyte, and a failure retried hourly
/// records it each time.
final class RecordedReasonTests: SyncTestCase {
    func testAServersHugeRefusalIsRecordedBoundedInEachOutcomeEvent() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "a", subject: "One", parent: nil, flags: []), (id: "b", subject: "Two", parent: nil, flags: [])], via: c)
        try addAccount()
        try sync()
        let reason = "NO [CANNOT] " + String(repeating: "é", count: 500_000)
        let settings = try XCTUnwrap(try views.account(named: accountName)?.settings)
        let engine = try SyncEngine(store: store, account: settings)
        defer { engine.disconnect() }
        var report = WriteBackReport()
        for (id, failed) in [("a", false), ("b", true)] {
            let copy = try XCTUnwrap(try views.copies(account: accountName, messageID: "\(id)@example.com").first)
            let thread = try XCTUnwrap(try views.emailRecord(id: copy.emailID)).threadID
            let action = try ManageThreadActionsUseCase(store: store).starThreads(ids: [thread])
            let record = try XCTUnwrap(try views.action(id: action.description))
            let outcome = failed ? SyncEngine.ActionOutcome(failedReason: reason)
                                 : SyncEngine.ActionOutcome(rejected: record.pending.map { (emailID: $0, reason: reason) })
            try engine.record(record, outcome, into: &report)
        }
        // (text, the whole text's length): a refused star's reason is the spec's words with the server's after them.
        var texts: [(String, Int)] = []
        var flagMessages: [String] = []
        let refused = "\(ActionKind.starRefusal) (\(reason))"
        try store.log.scan(filter: ScanFilter(types: [.actionRejected, .flagRejected, .actionFailed])) { ev in
            switch try ev.decode() {
            case .actionRejected(let p): texts.append((p.reason, refused.utf8.count))
            case .flagRejected(let p): flagMessages.append(p.message)
            case .actionFailed(let p): texts.append((p.reason, reason.utf8.count))
            default: break
            }
            return true
        }
        XCTAssertEqual(texts.count, 2)
        // The user's message is the spec's wording, never the server's text.
        XCTAssertEqual(flagMessages.count, 1)
        XCTAssertFalse(flagMessages.contains { $0.contains("CANNOT") }, "\(flagMessages)")
        for (text, whole) in texts {
            XCTAssertLessThanOrEqual(text.utf8.count, RecordedText.maxBytes)
            XCTAssertTrue(text.contains("NO [CANNOT] éé"), String(text.prefix(80)))
            XCTAssertTrue(text.hasSuffix("[... \(whole) bytes in all]"), String(text.suffix(80)))
        }
    }
}
