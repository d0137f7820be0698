import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
import Projections
import Views
import XCTest

/// Categorizing at import, the category tabs and counters, the user's corrections with learned sender rules,
/// and re-runs of the classifier, on a real store with real messages imported from a Maildir.
final class CategoriesTests: ViewsTestCase {
    static let messages: [(name: String, text: String)] = [
        ("1.person:2,", """
        From: Ann Lee <ann@example.org>
        To: me@example.net
        Subject: lunch on thursday?
        Date: Mon, 1 Apr 2024 10:00:00 +0000
        Message-ID: <p1@example.org>

        Are you free?
        """),
        ("2.github:2,", """
        From: GitHub <notifications@github.com>
        To: me@example.net
        Subject: [me/app] Build failed (#8)
        Date: Mon, 1 Apr 2024 10:01:00 +0000
        Message-ID: <g1@github.com>
        X-GitHub-Reason: ci_activity
        List-ID: me/app <app.me.github.com>

        The build failed.
        """),
        ("3.promo:2,", """
        From: Shopwell <news@shopwell.example>
        To: me@example.net
        Subject: 30% off everything this weekend
        Date: Mon, 1 Apr 2024 10:02:00 +0000
        Message-ID: <s1@shopwell.example>
        List-Unsubscribe: <mailto:unsub@shopwell.example>
        Precedence: bulk

        Sale!
        """),
        ("4.list:2,", """
        From: Carl <carl@example.org>
        To: notmuch@notmuchmail.org
        Subject: [notmuch] archive
        Date: Mon, 1 Apr 2024 10:03:00 +0000
        Message-ID: <l1@example.org>
        List-Id: "notmuch" <notmuch.notmuchmail.org>
        List-Post: <mailto:notmuch@notmuchmail.org>

        Patch attached.
        """),
        ("5.social:2,", """
        From: LinkedIn <messages-noreply@linkedin.com>
        To: me@example.net
        Subject: Sam sent you a message
        Date: Mon, 1 Apr 2024 10:04:00 +0000
        Message-ID: <ln1@linkedin.com>

        You have a message.
        """),
    ]

    func maildir(_ name: String, _ messages: [(name: String, text: String)]) throws -> String {
        let root = dir.file(name)
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(sub)", withIntermediateDirectories: true)
        }
        for m in messages {
            try Data(m.text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: URL(fileURLWithPath: "\(root)/cur/\(m.name)"))
        }
        return root
    }

    func importAll(_ root: String) throws {
        var options = Importer.Options()
        options.account = "acct"
        options.workers = 2
        _ = try Importer(store: store, options: options).importMaildir(root)
    }

    /// The emails' newest categorizations, by Message-ID.
    func categories() throws -> [String: EmailCategorized] {
        var idOf: [String: String] = [:]
        var out: [String: EmailCategorized] = [:]
        try store.log.scan(filter: ScanFilter(types: [.emailReceived, .emailCategorized])) { ev in
            switch try ev.decode() {
            case .emailReceived(let p): idOf[p.emailID] = p.messageID
            case .emailCategorized(let p): out[idOf[p.emailID] ?? "?"] = p
            default: break
            }
            return true
        }
        return out
    }

    func threadIDs(_ category: AICategory?) throws -> [String] {
        try FetchThreadsUseCase(views: try views()).fetchThreads(accountId: "acct", folderId: "INBOX", category: category)
            .threads.flatMap(\.messageIds)
    }

    func testMailFromSomeoneTheUserWroteToIsPrimaryByThatRule() throws {
        // The user wrote to Bob (a message in the Sent folder); later mail from Bob is primary because of it.
        let root = try maildir("sent-first", [])
        let sent = root + "/.Sent"
        for sub in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: sent + "/" + sub, withIntermediateDirectories: true) }
        try Data("Message-ID: <s1@me.example>\r\nFrom: Me <me@me.example>\r\nTo: Bob <bob@people.example>\r\nSubject: Dinner\r\nDate: Mon, 2 Sep 2024 09:00:00 +0000\r\n\r\nFriday?\r\n".utf8)
            .write(to: URL(fileURLWithPath: sent + "/cur/1:2,S"))
        try importAll(root)
        _ = try views()
        try importAll(try maildir("later", [(name: "2:2,", text: "Message-ID: <b1@people.example>\nFrom: Bob <bob@people.example>\nTo: me@me.example\nSubject: Saturday instead\nDate: Tue, 3 Sep 2024 09:00:00 +0000\n\nok?\n")]))
        let c = try XCTUnwrap(try categories()["b1@people.example"])
        XCTAssertEqual(c.category, .primary)
        XCTAssertEqual(c.rule.split(separator: ":").first.map(String.init), "primary.correspondent", c.rule)
        let contact = try XCTUnwrap(try store.contacts(account: "acct").first { $0.address == "bob@people.example" })
        XCTAssertEqual(contact.wroteTo, 1)
    }

    func testImportCategorizesEachMessageAndTheTabsShowThem() throws {
        try importAll(try maildir("mail", CategoriesTests.messages))
        let c = try categories()
        XCTAssertEqual(c.count, 5)
        XCTAssertEqual(c["p1@example.org"]?.category, .primary)
        XCTAssertEqual(c["g1@github.com"]?.category, .updates)
        XCTAssertEqual(c["g1@github.com"]?.rule, "updates.service-headers: X-GitHub-Reason: ci_activity")
        XCTAssertEqual(c["s1@shopwell.example"]?.category, .promotions)
        XCTAssertEqual(c["l1@example.org"]?.category, .forums)
        XCTAssertEqual(c["ln1@linkedin.com"]?.category, .social)
        for p in c.values {
            XCTAssertEqual(p.classifier, "rules")
            XCTAssertEqual(p.classifierVersion, 1)
        }
        XCTAssertEqual(try threadIDs(.primary), ["p1@example.org"])
        XCTAssertEqual(try threadIDs(.social), ["ln1@linkedin.com"])
        XCTAssertEqual(try threadIDs(.promotions), ["s1@shopwell.example"])
        XCTAssertEqual(try threadIDs(.updates), ["g1@github.com"])
        XCTAssertEqual(try threadIDs(nil).count, 5, "All holds every thread, forums too")
        let inbox = try FetchThreadsUseCase(views: try views()).fetchUnreadCounts(accountId: "acct", folderId: "INBOX")
        XCTAssertEqual(inbox[nil], 5)
        for cat in [AICategory.primary, .social, .promotions, .updates, .forums] { XCTAssertEqual(inbox[cat], 1, "\(cat)") }
        XCTAssertNil(inbox[.uncategorized])

        // Importing again appends nothing: the categorization's id derives from the message's location.
        let before = try store.log.head().sequence
        try importAll(dir.file("mail"))
        XCTAssertEqual(try store.log.head().sequence, before)
    }

    func testUserCorrectionWinsAndIsLearnedForTheSender() throws {
        try importAll(try maildir("mail", CategoriesTests.messages))
        let v = try views()
        let promo = try FetchThreadsUseCase(views: v).fetchThreads(accountId: "acct", folderId: "INBOX", category: .promotions).threads[0]
        let useCase = CategorizeEmailUseCase(store: store)
        let c = try useCase.categorizeThread(id: promo.id, as: .primary)
        XCTAssertEqual(c.learnedSender, "news@shopwell.example")
        XCTAssertEqual(try threadIDs(.promotions), [])
        XCTAssertEqual(Set(try threadIDs(.primary)), ["p1@example.org", "s1@shopwell.example"])
        let inbox = try FetchThreadsUseCase(views: try views()).fetchUnreadCounts(accountId: "acct", folderId: "INBOX")
        XCTAssertEqual(inbox[.primary], 2)
        XCTAssertNil(inbox[.promotions])
        XCTAssertEqual(try useCase.explanation(emailID: c.emailIDs[0])?.isUserCorrection, true)

        // Later mail from that sender follows the user's rule.
        try importAll(try maildir("later", [("6.promo:2,", """
            From: Shopwell <news@shopwell.example>
            To: me@example.net
            Subject: 50% off, last chance
            Date: Tue, 2 Apr 2024 10:00:00 +0000
            Message-ID: <s2@shopwell.example>
            List-Unsubscribe: <mailto:unsub@shopwell.example>
            Precedence: bulk

            Sale!
            """)]))
        let later = try categories()["s2@shopwell.example"]
        XCTAssertEqual(later?.category, .primary)
        XCTAssertEqual(later?.rule, "sender.learned: news@shopwell.example")

        // A re-run leaves the user's corrections alone.
        let summary = try CategorizeEmailUseCase(store: store).rerun()
        XCTAssertEqual(summary.userCorrections, 1)
        XCTAssertEqual(summary.recategorized, 0)
        XCTAssertEqual(try categories()["s1@shopwell.example"]?.isUserCorrection, true)

        // history shows why.
        let events = try store.history(of: .email(c.emailIDs[0]))
        let why = events.compactMap { ev -> String? in
            if case .emailCategorized(let p) = try? ev.decode() { return "\(p.category) \(p.classifier)" }
            return nil
        }
        XCTAssertEqual(why, ["promotions rules", "primary user"])
    }

    func testRerunRecategorizesOlderVersionsAsNewEventsOnce() throws {
        try importAll(try maildir("mail", CategoriesTests.messages))
        let emailID = try XCTUnwrap(try categories()["g1@github.com"]).emailID
        // An older classifier's record (version 1 of the payload: no version, no rule) put it in promotions.
        var w = ByteWriter()
        w.write(emailID); w.write(AICategory.promotions); w.write("rules")
        let old = try DomainEvent.decode(type: .emailCategorized, version: 1, payload: w.bytes)
        try store.log.append(NewEvent(event: old, account: "acct", stream: .email(emailID), actor: .system))
        XCTAssertEqual(try threadIDs(.promotions).count, 2)
        let head = try store.log.head().sequence

        let summary = try CategorizeEmailUseCase(store: store).rerun()
        XCTAssertEqual(summary.examined, 5)
        XCTAssertEqual(summary.recategorized, 1)
        XCTAssertEqual(summary.moved, 1)
        XCTAssertEqual(summary.upToDate, 4)
        XCTAssertEqual(try categories()["g1@github.com"]?.category, .updates)
        XCTAssertEqual(try threadIDs(.updates), ["g1@github.com"])
        XCTAssertEqual(try store.log.head().sequence, head + 1, "one new event; nothing edited")

        let again = try CategorizeEmailUseCase(store: store).rerun()
        XCTAssertEqual(again.recategorized, 0)
        XCTAssertEqual(again.upToDate, 5)
        XCTAssertEqual(try store.log.head().sequence, head + 1)
    }

    /// A re-run over a message whose blob is damaged (its content no longer matches its SHA-256) skips it, counted,
    /// and categorizes the others: one bad blob had stopped the run, writing nothing.
    func testRerunSkipsAndCountsAMessageWhoseBlobIsDamaged() throws {
        try importAll(try maildir("mail", CategoriesTests.messages))
        var blobs: [String: (emailID: String, blob: BlobHash)] = [:]
        try store.log.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode() { blobs[p.messageID ?? ""] = (p.emailID, p.blob) }
            return true
        }
        let github = try XCTUnwrap(blobs["g1@github.com"]), promo = try XCTUnwrap(blobs["s1@shopwell.example"])
        // Both left by an older classifier (version 1 of the payload), so a re-run reads their raw messages.
        for id in [github.emailID, promo.emailID] {
            var w = ByteWriter()
            w.write(id); w.write(AICategory.primary); w.write("rules")
            let old = try DomainEvent.decode(type: .emailCategorized, version: 1, payload: w.bytes)
            try store.log.append(NewEvent(event: old, account: "acct", stream: .email(id), actor: .system))
        }
        let env = store.log.environment
        let keys = try env.openDatabase("blob_keys"), data = try env.openDatabase("blob_data")
        try env.write { txn in
            let number = try XCTUnwrap(try txn.getBytes(keys, key: github.blob.bytes))
            _ = try txn.put(data, key: number, value: [0, 7] + Array("altered".utf8))
        }
        XCTAssertThrowsError(try store.log.blob(github.blob))

        let summary = try CategorizeEmailUseCase(store: store).rerun()
        XCTAssertEqual(summary.damagedRaw, [github.emailID])
        XCTAssertEqual(summary.missingRaw, [])
        XCTAssertEqual(summary.recategorized, 1, "the other message is categorized")
        XCTAssertEqual(try categories()["s1@shopwell.example"]?.category, .promotions)
        XCTAssertEqual(try categories()["g1@github.com"]?.category, .primary, "the damaged one is left as it was")
    }

    func testAThreadsCategoryIsItsNewestEmails() throws {
        try folder("INBOX", role: .inbox)
        try receive("a", messageID: "a@x", subject: "plans")
        try receive("b", messageID: "b@x", inReplyTo: ["a@x"], references: ["a@x"], subject: "Re: plans")
        try event(.emailCategorized(EmailCategorized(emailID: "a", category: .forums, classifier: "rules", classifierVersion: 1)), stream: "email/a")
        XCTAssertEqual(try threadIDs(.primary), [])
        XCTAssertEqual(try FetchThreadsUseCase(views: try views()).fetchThreads(accountId: "acct", folderId: "INBOX").threads.first?.aiCategory, .forums,
                       "the newest categorized email decides while the newer one has none")
        try event(.emailCategorized(EmailCategorized(emailID: "b", category: .primary, classifier: "rules", classifierVersion: 1)), stream: "email/b")
        XCTAssertEqual(Set(try threadIDs(.primary)), ["a@x", "b@x"])
        try event(.emailCategorized(EmailCategorized(emailID: "a", category: .promotions, classifier: "rules", classifierVersion: 1)), stream: "email/a")
        XCTAssertEqual(Set(try threadIDs(.primary)), ["a@x", "b@x"], "an older email's category does not move the thread")
        XCTAssertEqual(try threadIDs(.promotions), [])
        let counts = try FetchThreadsUseCase(views: try views()).fetchUnreadCounts(accountId: "acct", folderId: "INBOX")
        XCTAssertEqual(counts[.primary], 2, "a tab's badge counts the unread mail of the threads it lists")
        XCTAssertNil(counts[.promotions], "though an older email of the thread is a promotion, the tab lists none")
    }

    /// Every scope's unread counts by category: the folder's, the account's and the Inbox badge's (of the account and
    /// of every account). Each category sums with the others to All.
    private func tabs(_ folder: String = "INBOX", file: StaticString = #filePath, line: UInt = #line) throws -> [AICategory: Int] {
        let useCase = FetchThreadsUseCase(views: try views())
        for (account, scope) in [("acct", FolderPart.path("INBOX")), ("acct", .path("Archive")), ("acct", UnreadProjector.accountScope),
                                 ("acct", UnreadProjector.badgeScope), ("*", UnreadProjector.badgeScope)] {
            let c = try useCase.fetchUnreadCounts(accountId: account, folder: scope)
            XCTAssertEqual(c.filter { $0.key != nil }.values.reduce(0, +), c[nil] ?? 0, "\(account) \(scope): \(c)", file: file, line: line)
        }
        let counts = try useCase.fetchUnreadCounts(accountId: "acct", folderId: folder)
        return Dictionary(uniqueKeysWithValues: counts.compactMap { k, v in k.map { ($0, v) } })
    }

    /// A category tab's badge counts the unread messages of the threads that tab lists (in that folder), through
    /// the thread's category changing with a newer email, reads, a move, a merge of two threads and an expunge;
    /// the counters stay equal to those of views folded from empty.
    func testATabsBadgeCountsTheUnreadMailOfTheThreadsItLists() throws {
        try folder("INBOX", role: .inbox)
        try folder("Archive", role: .archive)
        func categorize(_ id: String, _ c: AICategory) throws {
            try event(.emailCategorized(EmailCategorized(emailID: id, category: c, classifier: "rules", classifierVersion: 1)), stream: .email(id))
        }
        // A newsletter, and a person's reply to it: the thread is the reply's (primary), both messages unread.
        try receive("n1", messageID: "n1@x", subject: "Deal")
        try categorize("n1", .promotions)
        XCTAssertEqual(try tabs(), [.promotions: 1])
        try receive("n2", messageID: "n2@x", inReplyTo: ["n1@x"], references: ["n1@x"], subject: "Re: Deal")
        try categorize("n2", .primary)
        XCTAssertEqual(try tabs(), [.primary: 2], "the promotion is listed, and counted, under Primary now")
        // A social thread; then the newsletter's copy read, and the reply archived.
        try receive("s1", messageID: "s1@x", subject: "Sam sent you a message")
        try categorize("s1", .social)
        XCTAssertEqual(try tabs(), [.primary: 2, .social: 1])
        try event(.flagsChanged(FlagsChanged(emailID: "n1", folder: "INBOX", flags: ["\\Seen"], added: ["\\Seen"])), stream: .email("n1"))
        XCTAssertEqual(try tabs(), [.primary: 1, .social: 1])
        try event(.threadArchived(ThreadAction(threadIDs: ["n1"], targets: [ActionTarget(emailID: "n2", folder: "INBOX", flags: [])],
                                               destination: "Archive")), stream: .thread("n1"))
        XCTAssertEqual(try tabs(), [.social: 1], "the Inbox holds the read newsletter only")
        XCTAssertEqual(try tabs("Archive"), [.primary: 1])
        // A message joining both threads merges them: the merged thread is the newest email's (social).
        try receive("m1", messageID: "m1@x", references: ["n2@x", "s1@x"], subject: "Re: both")
        try categorize("m1", .social)
        XCTAssertEqual(try tabs(), [.social: 2])
        XCTAssertEqual(try tabs("Archive"), [.social: 1])
        try event(.emailExpunged(EmailExpunged(emailID: "m1", folder: "INBOX")), stream: .email("m1"))
        XCTAssertEqual(try tabs(), [.social: 1])
        try event(.emailExpunged(EmailExpunged(emailID: "s1", folder: "INBOX")), stream: .email("s1"))
        XCTAssertEqual(try tabs(), [:])
        XCTAssertEqual(try tabs("Archive"), [.primary: 1], "the thread left is the archived reply's again")

        let live = try views()
        try live.catchUp()
        let fresh = try ViewStore.scratch(in: dir.file("scratch"), log: store.log, through: try store.log.head().sequence)
        try assertEqualViews(fresh, live, "folded from empty")
    }

    func testCategorizerAvailabilityFlag() throws {
        let useCase = CategorizeEmailUseCase(store: store)
        XCTAssertEqual(useCase.isAvailable, ProcessInfo.processInfo.environment["MAILSTORE_CATEGORIZER"]?.lowercased() != "off")
        XCTAssertEqual(CategorizeEmailUseCase.classifier, "rules/1")
    }
}
