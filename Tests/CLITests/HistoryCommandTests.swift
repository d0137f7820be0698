import EventLog
import EventModel
import Foundation
import TestSupport
import XCTest

/// `mailstore history`'s text timeline: each line's time is when the log recorded the event (as `log` prints), not
/// its `occurredAt`, which for a receipt or a categorization is the message's Date header.
final class HistoryCommandTests: CLITestCase {
    /// A message dated 2024-01-01 10:05 received and categorized on 2030-01-01 at 10:00 and 10:01: the timeline
    /// says 2030 (in log order), and names the Date header apart (it had listed both at 2024-01-01 10:05).
    func testTheTimelineShowsTheRecordedTimeAndTheDateHeaderApart() throws {
        try mailstore("init")
        let log = try EventLog(store: StoreDirectory(path: store))
        let recorded: Int64 = 1_893_492_000_000_000  // 2030-01-01 10:00:00 UTC
        let dated = Timestamp(microseconds: 1_704_103_500_000_000)  // 2024-01-01 10:05:00 UTC
        let received = EmailReceived(emailID: "h1", folder: "INBOX", messageID: "h1@example.com", subject: "Hello",
                                     from: [EmailAddress(name: "Alice", email: "alice@example.com")], date: dated,
                                     dateSource: .header, size: 100, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)
        log.clock = { Timestamp(microseconds: recorded) }
        try log.append(NewEvent(event: .emailReceived(received), account: "acct", stream: .email("h1"), occurredAt: dated, actor: .sync))
        log.clock = { Timestamp(microseconds: recorded + 60_000_000) }
        try log.append(NewEvent(event: .emailCategorized(EmailCategorized(emailID: "h1", category: .updates, classifier: "rules", classifierVersion: 1)),
                                account: "acct", stream: .email("h1"), occurredAt: dated, actor: .sync))
        let lines = try mailstore("history", "--email", "h1").stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        XCTAssertEqual(lines.map { String($0.prefix(19)) }, ["2030-01-01 10:00:00", "2030-01-01 10:01:00"], "\(lines)")
        XCTAssertTrue(lines.allSatisfy { $0.hasSuffix("(occurred 2024-01-01 10:05:00)") }, "\(lines)")
    }

    /// A tab or line break in a subject or a sender's name: `history` printed it raw (through a block, which keeps
    /// tabs), where `log` and `project` print a space.
    func testATabInASubjectIsASpaceAsInTheLog() throws {
        try mailstore("init")
        let log = try EventLog(store: StoreDirectory(path: store))
        let received = EmailReceived(emailID: "t1", folder: "INBOX", messageID: "t1@example.com", subject: "Tab\there\nand there",
                                     from: [EmailAddress(name: "Ann\tLee", email: "ann@example.com")], date: Timestamp(microseconds: 1_704_103_500_000_000),
                                     dateSource: .header, size: 100, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)
        try log.append(NewEvent(event: .emailReceived(received), account: "acct", stream: .email("t1"), actor: .sync))
        let history = try mailstore("history", "--email", "t1").stdout
        XCTAssertFalse(history.contains("\t"), history.debugDescription)
        XCTAssertTrue(history.contains("Tab here and there"), history)
        XCTAssertTrue(history.contains("Ann Lee <ann@example.com>"), history)
        XCTAssertEqual(history.split(separator: "\n").count, 1, history)
        let logged = try mailstore("log", "--type", "EmailReceived").stdout
        XCTAssertTrue(logged.contains("Tab here and there"), logged)
    }

    /// A sender at an internationalised domain: `log` and `history` summarise the receipt with the domain as people read
    /// it (`bücher.example`), as `show` prints it, where they had printed its A-label; a label the display rules keep
    /// (Latin mixed with Cyrillic) stays as written; `log --json`'s payload keeps the address as the mail wrote it.
    func testTheSummaryShowsAnInternationalisedSenderAsPeopleReadIt() throws {
        try mailstore("init")
        let log = try EventLog(store: StoreDirectory(path: store))
        for (id, from) in [("i1", EmailAddress(name: "Bob", email: "bob@xn--bcher-kva.example")),
                           ("i2", EmailAddress(name: nil, email: "eve@xn--pypal-4ve.example"))] {
            let received = EmailReceived(emailID: id, folder: "INBOX", messageID: "\(id)@example.com", subject: "Order \(id)",
                                         from: [from], date: Timestamp(microseconds: 1_704_103_500_000_000),
                                         dateSource: .header, size: 100, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)
            try log.append(NewEvent(event: .emailReceived(received), account: "acct", stream: .email(id), actor: .sync))
        }
        let logged = try mailstore("log", "--type", "EmailReceived").stdout
        XCTAssertTrue(logged.contains("\"Order i1\" from Bob <bob@bücher.example> in INBOX"), logged)
        XCTAssertTrue(logged.contains("\"Order i2\" from eve@xn--pypal-4ve.example in INBOX"), logged)
        XCTAssertTrue(try mailstore("history", "--email", "i1").stdout.contains("Bob <bob@bücher.example>"))
        let json = try mailstore("log", "--type", "EmailReceived", "--json").stdout
        XCTAssertTrue(json.contains("\"bob@xn--bcher-kva.example\""), json)
        let learned = SenderCategoryLearned(sender: "bob@xn--bcher-kva.example", category: .promotions, emailID: "i1")
        try log.append(NewEvent(event: .senderCategoryLearned(learned), account: "acct", stream: .email("i1"), actor: .user))
        let rule = try mailstore("log", "--type", "SenderCategoryLearned").stdout
        XCTAssertTrue(rule.contains("mail from bob@bücher.example -> promotions"), rule)
    }
}
