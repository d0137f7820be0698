import EventLog
import EventModel
import Foundation
import MailStore
import TestSupport
import XCTest

/// A removed account's mail leaves every read across accounts (the unified inbox and folders, the badge over every
/// account, `--unified` views, a search without `--account`), as a client's "All Inboxes" drops an account removed;
/// its mail stays in the log and is read by naming the account; mail imported without a server stays in; the same
/// mailbox added again under its old name brings it back, and under another name it is not listed twice.
final class RemovedAccountViewsTests: CLITestCase {
    /// `account add NAME --email LOGIN --host imap.example.com` (a server never reached).
    private func add(_ name: String, _ login: String) throws {
        let pw = dir.file("pw")
        if !FileManager.default.fileExists(atPath: pw) {
            try Data("secret".utf8).write(to: URL(fileURLWithPath: pw))
            chmod(pw, 0o600)
        }
        try mailstore("account", "add", name, "--email", login, "--host", "imap.example.com", "--security", "tls", "--password-file", pw)
    }

    /// An mbox of `count` unread messages whose subjects start with `tag` and whose bodies say "invoice".
    private func mbox(_ tag: String, count: Int) throws -> String {
        var out = ""
        for i in 0..<count {
            out += "From sender@example.com Mon Jan  1 00:00:00 2024\n"
            out += "From: Sender <sender@example.com>\nSubject: \(tag) \(i)\nMessage-ID: <\(tag)\(i)@example.com>\n"
            out += "Date: Mon, \(i + 1) Jan 2024 10:00:00 +0000\n\nThe invoice for \(tag), number \(i).\n\n"
        }
        let path = dir.file("\(tag).mbox")
        try Data(out.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func object(_ args: [String]) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try mailstore(args).stdout.utf8)) as? [String: Any])
    }

    /// The accounts of the unified inbox's threads (every page, and two rows a page through the cursors: the same rows).
    private func unifiedAccounts(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Int] {
        let page = try object(["project", "--view", "threads", "--unified", "--all", "--json"])
        let threads = try XCTUnwrap(page["threads"] as? [[String: Any]])
        var paged: [String] = []
        var cursor: String?
        repeat {
            let p = try object(["project", "--view", "threads", "--unified", "--json", "--limit", "2"] + (cursor.map { ["--cursor", $0] } ?? []))
            paged += (p["threads"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            cursor = p["nextCursor"] as? String
        } while cursor != nil && paged.count <= threads.count
        XCTAssertEqual(paged, threads.compactMap { $0["id"] as? String }, "paged as listed", file: file, line: line)
        return threads.reduce(into: [:]) { $0[$1["accountId"] as? String ?? "?", default: 0] += 1 }
    }

    /// The accounts a search without `--account` finds "invoice" in, by messages.
    private func searched(_ extra: [String] = [], query: String = "invoice") throws -> [String: Int] {
        let out = try mailstore(["search", query, "--json", "--limit", "100"] + extra).stdout
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        return rows.reduce(into: [:]) { $0[$1["account"] as? String ?? "?", default: 0] += 1 }
    }

    private func unread() throws -> (accounts: [String], badge: Int) {
        let u = try object(["project", "--view", "unread", "--unified", "--json"])
        return ((u["accounts"] as? [[String: Any]])?.compactMap { $0["account"] as? String } ?? [], u["badge"] as? Int ?? -1)
    }

    func testARemovedAccountsMailLeavesTheUnifiedViewsAndIsReadByName() throws {
        try mailstore("init")
        try mailstore("import", "--mbox", try mbox("local", count: 2), "--folder", "INBOX", "--quiet")
        try add("work", "carol@example.com")
        try fileAsSynced(mbox: try mbox("work", count: 3), account: "work")
        try add("home", "dan@example.com")
        try fileAsSynced(mbox: try mbox("home", count: 4), account: "home")
        XCTAssertEqual(try unifiedAccounts(), ["local": 2, "work": 3, "home": 4])
        XCTAssertEqual(try unread().badge, 9)
        XCTAssertEqual(try searched(), ["local": 2, "work": 3, "home": 4])

        try mailstore("account", "remove", "work")
        // Gone from every read across accounts.
        XCTAssertEqual(try unifiedAccounts(), ["local": 2, "home": 4])
        let (accounts, badge) = try unread()
        XCTAssertEqual(accounts, ["home", "local"])
        XCTAssertEqual(badge, 6)
        XCTAssertFalse(try mailstore("project", "--view", "unread", "--unified").stdout.contains("Account work"))
        XCTAssertEqual(try searched(), ["local": 2, "home": 4])
        XCTAssertEqual(try searched(query: "*"), ["local": 2, "home": 4])
        XCTAssertEqual(try searched(["--output", "messages"]), ["local": 2, "home": 4])
        // Read by name: `--account`, and a query's `account:` term.
        let work = try object(["project", "--view", "threads", "--account", "work", "--all", "--json"])
        XCTAssertEqual((work["threads"] as? [[String: Any]])?.count, 3)
        XCTAssertEqual(try searched(["--account", "work"]), ["work": 3])
        XCTAssertEqual(try searched(query: "invoice account:work"), ["work": 3])
        let workUnread = try object(["project", "--view", "unread", "--account", "work", "--json"])
        XCTAssertEqual(workUnread["badge"] as? Int, 3)

        // The same mailbox again under its old name: back where it was.
        try add("work", "carol@example.com")
        XCTAssertEqual(try unifiedAccounts(), ["local": 2, "work": 3, "home": 4])
        XCTAssertEqual(try unread().badge, 9)
        XCTAssertEqual(try searched(), ["local": 2, "work": 3, "home": 4])

        // Removed and added under another name (its sync files the mailbox's mail under that name): listed once.
        try mailstore("account", "remove", "work")
        try add("job", "carol@example.com")
        try fileAsSynced(mbox: dir.file("work.mbox"), account: "job")
        XCTAssertEqual(try unifiedAccounts(), ["local": 2, "job": 3, "home": 4])
        XCTAssertEqual(try unread().badge, 9)
        XCTAssertEqual(try searched(), ["local": 2, "job": 3, "home": 4])
    }

    /// With one account left besides a removed one, commands that take the only account take it (the removed one is
    /// named to be read); the unified Archive-like folders leave it out too.
    func testARemovedAccountIsNoDefaultNorInAUnifiedFolder() throws {
        try mailstore("init")
        try add("work", "carol@example.com")
        try fileAsSynced(mbox: try mbox("work", count: 3), folder: "Archive", account: "work")
        try add("home", "dan@example.com")
        try fileAsSynced(mbox: try mbox("home", count: 2), folder: "Archive", account: "home")
        try mailstore("project", "--view", "threads", expect: 64)
        try mailstore("account", "remove", "work")
        let page = try object(["project", "--view", "threads", "--folder", "Archive", "--json"])
        XCTAssertEqual(Set((page["threads"] as? [[String: Any]])?.compactMap { $0["accountId"] as? String } ?? []), ["home"])
        let unified = try object(["project", "--view", "threads", "--unified", "--folder", "Archive", "--json"])
        XCTAssertEqual((unified["threads"] as? [[String: Any]])?.compactMap { $0["accountId"] as? String }, ["home", "home"])
    }
    /// Views behind the log (another process's `account add` appended and not yet folded, a long-running process's views)
    /// never show an account added again as removed: the log's `account/` stream decides, not the accounts view. It had
    /// been left out of the unified inbox, the badge and the unified names until the views caught up.
    func testAnAccountAddedAgainIsNotRemovedWhileTheViewsAreBehindTheLog() throws {
        try mailstore("init")
        try add("work", "carol@example.com")
        try fileAsSynced(mbox: try mbox("work", count: 3), account: "work")
        try add("home", "dan@example.com")
        try fileAsSynced(mbox: try mbox("home", count: 2), account: "home")
        try mailstore("account", "remove", "work")
        // A process whose views are open, caught up with the removal.
        let reader = try MailStore.open(at: store)
        let list = FetchThreadsUseCase(store: reader)
        func accounts() throws -> [String: Int] {
            try list.fetchUnifiedThreads(pageSize: 100).threads.reduce(into: [:]) { $0[$1.accountId, default: 0] += 1 }
        }
        XCTAssertEqual(try accounts(), ["home": 2])
        XCTAssertEqual(try list.fetchBadgeCount(), 2)
        // Added again: its `AccountAdded` in the log, not folded into the views yet (as between another process's append
        // and its fold).
        var added: AccountAdded?
        try reader.log.scanDecoded(filter: ScanFilter(stream: .account("work"))) { _, event in
            if case .success(.accountAdded(let a)) = event { added = a }
            return true
        }
        try reader.log.append(NewEvent(event: .accountAdded(try XCTUnwrap(added)), account: "work", stream: .account("work"), actor: .user))
        let readded = try reader.log.head().sequence
        XCTAssertNil(try reader.views().account(named: "work"), "the views are behind the log")
        XCTAssertEqual(try accounts(), ["work": 3, "home": 2])
        XCTAssertEqual(try list.fetchBadgeCount(), 5)
        XCTAssertEqual(try reader.unifiedAccountNames(), ["home", "work"])
        XCTAssertEqual(try reader.removedAccounts(), [])
        // An action on its mail is taken (queued for its server), not refused as the mail of a removed account.
        let thread = try XCTUnwrap(try list.fetchUnifiedThreads(pageSize: 100).threads.first { $0.accountId == "work" })
        XCTAssertNoThrow(try ManageThreadActionsUseCase(store: reader).toggleStarStatus(threadId: thread.id))
        XCTAssertEqual(try reader.views().pendingActions(account: "work").count, 1)
        // Removed again in the log, the views still behind: left out at once.
        try reader.log.append(NewEvent(event: .accountRemoved(AccountRemoved(name: "work")), account: "work", stream: .account("work"), actor: .user))
        XCTAssertEqual(try accounts(), ["home": 2])
        XCTAssertEqual(try reader.removedAccounts(), ["work"])
        // As of the point before the second add, it was removed; as of the add, it was not.
        XCTAssertEqual(try reader.asOf(String(readded - 1)).removedAccounts(), ["work"])
        XCTAssertEqual(try reader.asOf(String(readded)).removedAccounts(), [])
    }
}
