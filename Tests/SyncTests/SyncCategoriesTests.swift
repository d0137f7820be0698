import EventLog
import EventModel
import IMAPProtocol
import MailStore
import XCTest

/// Sync categorizes each new message as it ingests it, against the real Dovecot.
final class SyncCategoriesTests: SyncTestCase {
    func testSyncedMailIsCategorizedOnceWithItsRule() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [("p1", "lunch?", nil, []), ("p2", "Re: lunch?", "p1", [])], via: c)
        _ = try c.append(to: MailboxName("INBOX"), message: Array("""
            From: GitHub <notifications@github.com>\r
            To: test@example.com\r
            Subject: [me/app] Build failed\r
            Date: 05 Mar 2026 10:00:00 +0000\r
            Message-ID: <gh1@github.com>\r
            X-GitHub-Reason: ci_activity\r
            \r
            failed\r

            """.utf8), flags: [])
        try addAccount()
        let report = try sync()
        XCTAssertEqual(report.received, 3)
        var categories: [String: EmailCategorized] = [:]
        var received = 0
        try store.log.scan(filter: ScanFilter(types: [.emailReceived, .emailCategorized])) { ev in
            switch try ev.decode() {
            case .emailReceived: received += 1
            case .emailCategorized(let p):
                XCTAssertEqual(ev.envelope.actor, .sync)
                XCTAssertNil(categories.updateValue(p, forKey: p.emailID), "one categorization per email")
            default: break
            }
            return true
        }
        XCTAssertEqual(received, 3)
        XCTAssertEqual(categories.values.map(\.category).sorted { $0.rawValue < $1.rawValue }, [.primary, .primary, .updates])
        XCTAssertTrue(categories.values.contains { $0.rule == "primary.reply: alice@example.com" })
        XCTAssertEqual(try sync().received, 0)
        var after = 0
        try store.log.scan(filter: ScanFilter(types: [.emailCategorized])) { _ in after += 1; return true }
        XCTAssertEqual(after, 3, "a sync with nothing new categorizes nothing")
    }
}
