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

    /// One engine kept across syncs (as `sync --watch` keeps it) categorizes later mail with what the user changed
    /// since it was made: a sender the user filed under Social after the engine started (`categorize --as`), and a
    /// person the user wrote to since (Sent synced by the engine's previous sync). It had used the learned rules and
    /// correspondents of its start until it was restarted.
    func testARunningEngineCategorizesWithRulesLearnedAndPeopleWrittenToSinceItStarted() throws {
        let c = try server()
        defer { c.logout() }
        _ = try c.append(to: MailboxName("INBOX"), message: SyncTestCase.message("c1", subject: "Photos", from: "Carol <carol@example.org>"))
        try addAccount()
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        defer { engine.disconnect() }
        engine.categorizerPeopleInterval = 0  // at most every 5 minutes in a watch
        XCTAssertEqual(try engine.syncAll().received, 1)
        let first = try XCTUnwrap(try views.copies(account: accountName, messageID: "c1@example.com").first)
        let thread = try XCTUnwrap(try views.emailRecord(id: first.emailID)?.threadID)
        XCTAssertEqual(try CategorizeEmailUseCase(store: store).categorizeThread(id: thread, as: .social).learnedSender, "carol@example.org")
        // The user writes to Dave; the engine's next sync files it from Sent.
        try fill("Sent", [], via: c)
        _ = try c.append(to: MailboxName(path("Sent")), message: Array("""
            From: Me <me@example.com>\r
            To: Dave <dave@example.org>\r
            Subject: Dinner\r
            Date: 02 Mar 2026 10:00:00 +0000\r
            Message-ID: <s1@example.com>\r
            \r
            Friday?\r

            """.utf8), flags: ["\\Seen"])
        XCTAssertEqual(try engine.syncAll().received, 1)
        _ = try c.append(to: MailboxName("INBOX"), message: SyncTestCase.message("c2", subject: "More photos", from: "Carol <carol@example.org>"))
        _ = try c.append(to: MailboxName("INBOX"), message: SyncTestCase.message("d1", subject: "Saturday instead", from: "Dave <dave@example.org>"))
        XCTAssertEqual(try engine.syncAll().received, 2)
        var ids: [String: String] = [:]
        var rules: [String: EmailCategorized] = [:]
        try store.log.scan(filter: ScanFilter(types: [.emailReceived, .emailCategorized])) { ev in
            switch try ev.decode() {
            case .emailReceived(let p): ids[p.messageID ?? ""] = p.emailID
            case .emailCategorized(let p): rules[p.emailID] = p
            default: break
            }
            return true
        }
        let carol = try XCTUnwrap(rules[try XCTUnwrap(ids["c2@example.com"])])
        XCTAssertEqual(carol.category, .social)
        XCTAssertEqual(carol.rule, "sender.learned: carol@example.org")
        let dave = try XCTUnwrap(rules[try XCTUnwrap(ids["d1@example.com"])])
        XCTAssertEqual(dave.category, .primary)
        XCTAssertEqual(dave.rule, "primary.correspondent: dave@example.org")
    }
}
