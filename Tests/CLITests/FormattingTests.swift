import Foundation
@testable import MailStore
@testable import MailStoreCLI
import XCTest

final class FormattingTests: XCTestCase {
    var calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    func date(_ s: String) -> Date { ISO8601DateFormatter().date(from: s)! }

    func testRelativeTimesFollowTheSpec() {
        let now = date("2024-03-14T18:00:00Z") // a Thursday
        XCTAssertEqual(RelativeTime.format(date("2024-03-14T15:42:00Z"), now: now, calendar: calendar), "3:42 PM")
        XCTAssertEqual(RelativeTime.format(date("2024-03-13T09:00:00Z"), now: now, calendar: calendar), "Yesterday")
        XCTAssertEqual(RelativeTime.format(date("2024-03-12T09:00:00Z"), now: now, calendar: calendar), "Tue")
        XCTAssertEqual(RelativeTime.format(date("2024-01-15T09:00:00Z"), now: now, calendar: calendar), "Jan 15")
        XCTAssertEqual(RelativeTime.format(date("2023-01-15T09:00:00Z"), now: now, calendar: calendar), "1/15/23")
    }

    func summary(_ names: [String?], count: Int) -> ThreadSummary {
        ThreadSummary(id: "t", accountId: "a", subject: "S", participants: names.enumerated().map { Participant(name: $0.element, email: "p\($0.offset)@example.com") },
                      snippet: "", latestDate: Date(), messageCount: count, unreadCount: 0, isStarred: false,
                      hasAttachments: false, aiCategory: .uncategorized, messageIds: [], folders: [])
    }

    func testSenderColumn() {
        XCTAssertEqual(ThreadRow.senders(summary(["John Doe", "Sarah Lee"], count: 3)), "John, Sarah (3)")
        XCTAssertEqual(ThreadRow.senders(summary(["John Doe"], count: 1)), "John")
        XCTAssertEqual(ThreadRow.senders(summary([nil], count: 1)), "p0")
        XCTAssertEqual(ThreadRow.senders(summary([], count: 2)), "Unknown (2)")
    }

    func testColumnsCountWideCharactersTwice() {
        XCTAssertEqual(ThreadRow.fit("徐丽", 6), "徐丽  ")
        XCTAssertEqual(ThreadRow.fit("abcdef", 4), "abc…")
        XCTAssertEqual(ThreadRow.fit("徐丽徐丽", 5), "徐丽…")
        XCTAssertEqual(ThreadRow.fit("ab", 4), "ab  ")
    }

    /// Errors and warnings are bounded in scalars: a huge message keeps its beginning and its closing hint, and one
    /// character of a million combining marks is cut too.
    func testAHugeMessageIsCutToItsEnds() {
        XCTAssertEqual(Terminal.bounded("short"), "short")
        let exact = String(repeating: "a", count: Terminal.maxMessageScalars)
        XCTAssertEqual(Terminal.bounded(exact), exact)
        let long = "no email with id '" + String(repeating: "a", count: 100_000) + "': `mailstore log` lists them"
        let cut = Terminal.bounded(long)
        XCTAssertTrue(cut.hasPrefix("no email with id 'aaa"))
        XCTAssertTrue(cut.hasSuffix("': `mailstore log` lists them"))
        XCTAssertLessThan(cut.unicodeScalars.count, 1_600)
        let bomb = "x" + String(repeating: "\u{0301}", count: 1_000_000)
        XCTAssertEqual(bomb.count, 1)
        XCTAssertLessThan(Terminal.bounded(bomb).utf8.count, 4_000)
    }

    /// Folder names in sync's errors are the server's: each printed on one line (a line feed in one forged a line of
    /// stderr through `sync --folder NOSUCH`'s list of folders).
    func testFolderNamesInSyncErrorsAreOneLineEach() {
        let notFound = SyncError.folderNotFound("no\nsuch", available: ["INBOX", "nl\nmailstore: error: forged"])
        XCTAssertFalse(notFound.description.contains("\n"), notFound.description)
        let refused = SyncError.foldersNotSynced(account: "a", folders: ["x\ny"])
        XCTAssertFalse(refused.description.contains("\n"), refused.description)
    }
}
