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

    /// Columns by terminal display width: East Asian wide and fullwidth 2, emoji 2 (by `Emoji_Presentation`, U+FE0F,
    /// flags, joined sequences), combining marks and format characters 0. Emoji past the old table's two blocks (`🚀`,
    /// `☕`, `✅`), a lone combining mark and a zero-width space had counted one column each: the folders view's columns
    /// went out of line after such a name.
    func testDisplayWidthsOfCharacters() {
        let table: [(String, Int)] = [
            ("a", 1), ("é", 1), ("e\u{301}", 1), ("\u{301}", 0), ("e\u{301}\u{302}\u{303}", 1), ("\u{200B}", 0), ("\u{2060}", 0),
            ("\u{00AD}", 1), ("徐", 2), ("한", 2), ("\u{1112}\u{1161}\u{11AB}", 2), ("Ａ", 2), ("ｱ", 1), ("　", 2), ("〜", 2),
            ("🚀", 2), ("☕", 2), ("✅", 2), ("⭐", 2), ("📎", 2), ("😀", 2), ("🫠", 2), ("❤️", 2), ("❤", 1), ("☺", 1),
            ("🇩🇪", 2), ("👍🏽", 2), ("👨\u{200D}👩\u{200D}👧", 2), ("1\u{FE0F}\u{20E3}", 2), ("Ω", 1), ("ß", 1), ("→", 1),
        ]
        for (text, width) in table {
            XCTAssertEqual(DisplayWidth.of(text), width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        XCTAssertEqual(DisplayWidth.of("☕ Café 徐"), 2 + 1 + 4 + 1 + 2)
    }

    /// A column is padded and cut by display width: what follows it starts at the same column whatever the name holds.
    func testColumnsLineUpAfterEmojiAndCombiningMarks() {
        XCTAssertEqual(ThreadRow.fit("🚀 Launch", 12), "🚀 Launch   ")
        XCTAssertEqual(ThreadRow.fit("☕", 4), "☕  ")
        XCTAssertEqual(ThreadRow.fit("Cafe\u{301}s", 8), "Cafe\u{301}s   ")
        XCTAssertEqual(ThreadRow.fit("\u{301}x", 3), "\u{301}x  ")
        XCTAssertEqual(ThreadRow.fit("a\u{200B}b", 3), "a\u{200B}b ")
        XCTAssertEqual(ThreadRow.fit("✅✅✅", 5), "✅✅…")
        XCTAssertEqual(ThreadRow.fit("🇩🇪🇫🇷x", 4), "🇩🇪… ")
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
