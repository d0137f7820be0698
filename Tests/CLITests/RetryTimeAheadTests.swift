import EventModel
import Foundation
@testable import MailStore
@testable import MailStoreCLI
import Projections
import XCTest

/// A retry time recorded more than an hour ahead of the clock (recorded while it stood ahead, or the clock stepped back
/// since) is due now: `draft show`'s `Server:` line and `mailstore actions` (and `project --view actions`) show it as
/// `now (recorded TIME, ahead of this clock)`, the words of `outbox`. They had shown it as recorded, a year ahead.
final class RetryTimeAheadTests: XCTestCase {
    private func ahead(_ seconds: Double) -> Timestamp { Timestamp(Date().addingTimeInterval(seconds)) }

    func testADraftsRetryRecordedAYearAheadIsShownDueNow() {
        var s = DraftServerState(account: "work", draftID: "d1")
        s.attempts = 2
        s.problem = "the server could not be reached"
        let recorded = ahead(366 * 86_400)
        s.retryAt = recorded
        let line = DraftPushOption.serverLine(s, version: 1)
        XCTAssertTrue(line.contains("retried now (recorded \(recorded.iso8601), ahead of this clock)"), line)
        let soon = ahead(600)
        s.retryAt = soon
        XCTAssertTrue(DraftPushOption.serverLine(s, version: 1).contains("retried at \(soon.iso8601))"),
                      "within the longest backoff: as recorded")
    }

    func testAnActionsRetryRecordedAYearAheadIsShownDueNow() {
        var r = ActionRecord(id: EventID(high: 1, low: 2), account: "work", kind: .archive, sequence: 5, occurredAt: .now,
                             threadIDs: ["t1"], targets: [ActionTarget(emailID: "e1", folder: "INBOX", flags: [])],
                             destination: nil, causation: nil)
        r.attempts = 1
        r.lastError = "the server could not be reached"
        let recorded = ahead(366 * 86_400)
        r.retryAt = recorded
        let line = ActionsCommand.line(r)
        XCTAssertTrue(line.hasSuffix("  retry now (recorded \(recorded.iso8601), ahead of this clock)"), line)
        let soon = ahead(600)
        r.retryAt = soon
        XCTAssertTrue(ActionsCommand.line(r).hasSuffix("  retry at \(soon.iso8601)"), "within the longest backoff: as recorded")
    }
}
