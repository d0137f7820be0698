import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import Projections
import SecureTransport
import TestSupport
import XCTest

/// Provider semantics against the real Dovecot: Gmail's archive target found by `\All` under another name,
/// the virtual Starred folder of a server without one, and batch actions spanning two accounts.
final class ProviderSemanticsSyncTests: SyncTestCase {
    private var actions: ManageThreadActionsUseCase { ManageThreadActionsUseCase(store: store) }

    /// The thread holding the message with Message-ID `id@example.com` in `account`.
    private func thread(_ id: String, account: String? = nil) throws -> String {
        let copy = try XCTUnwrap(try views.copies(account: account ?? accountName, messageID: "\(id)@example.com").first)
        return try XCTUnwrap(try views.emailRecord(id: copy.emailID)).threadID
    }

    /// The test account recorded as a Gmail account (the registry's provider, on the test Dovecot).
    private func addGmailAccount() throws {
        var a = try AccountSettings(name: accountName, email: user, host: imap.host, port: imap.tlsPort, security: "tls", auth: "plain",
                                    credential: .file(passwordFile), caFile: imap.caFile).validated()
        a.provider = "gmail"
        try store.commit([NewEvent(event: .accountAdded(a), account: a.name, stream: .account(a.name), actor: .user)])
    }

    private func uids(_ folder: String, _ id: String, via c: IMAPConnection) throws -> [UInt32] {
        _ = try c.select(MailboxName(folder), readOnly: true)
        return try c.uidSearch([.header("Message-ID", "\(id)@example.com")])
    }

    func testGmailArchivesToTheAllFolderWhateverItsName() throws {
        let c = try server()
        defer { c.logout() }
        try c.create(MailboxName("AllMail"))
        XCTAssertTrue(try c.list().contains { $0.mailbox.name == "AllMail" && $0.attributes.contains("\\All") }, "the test server's \\All folder")
        try fill("INBOX", [(id: "g1", subject: "Gmail thread", parent: nil, flags: [])], via: c)
        try addGmailAccount()
        try sync()
        XCTAssertEqual(try views.folders(account: accountName).first { $0.role == .all }?.path, "AllMail")
        let action = try actions.archiveThreads(ids: [try thread("g1")])
        XCTAssertEqual(try views.action(id: action.description)?.destination, "AllMail", "not [Gmail]/All Mail, not Archive")
        _ = try store.pushActions(for: action.description)
        XCTAssertEqual(try uids("INBOX", "g1", via: c), [])
        XCTAssertEqual(try uids("AllMail", "g1", via: c).count, 1)
    }

    func testGmailWithoutAnAllFolderRefusesToArchiveClearly() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "g2", subject: "No All Mail", parent: nil, flags: [])], via: c)
        try addGmailAccount()
        try sync()
        XCTAssertThrowsError(try actions.archiveThreads(ids: [try thread("g2")])) { error in
            XCTAssertTrue("\(error)".contains("No All Mail folder (\\All)"), "\(error)")
            XCTAssertEqual(ErrorCategory(of: error), .refused)
        }
    }

    func testFlaggedThreadsShowInAVirtualStarredFolder() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "s1", subject: "Starred one", parent: nil, flags: ["\\Flagged"]),
                           (id: "s2", subject: "Plain", parent: nil, flags: []),
                           (id: "s3", subject: "Re: Starred one", parent: "s1", flags: ["\\Flagged"])], via: c)
        try fill("Archive", [(id: "s4", subject: "Old star", parent: nil, flags: ["\\Flagged"])], via: c)
        try addAccount()
        try sync()
        let list = FetchThreadsUseCase(views: views)
        let folders = try list.fetchFolders(accountId: accountName)
        XCTAssertEqual(folders.prefix(2).map(\.id), ["INBOX", "\\Starred"], "after the Inbox, with no server folder")
        XCTAssertEqual(folders.first { $0.id == "\\Starred" }?.role, .flagged)
        XCTAssertEqual(folders.filter(\.isVirtual).map(\.id), ["\\Starred"])
        XCTAssertFalse(try c.list().contains { $0.mailbox.name == "Starred" })
        let starred = try list.fetchThreads(accountId: accountName, folderId: "Starred")
        XCTAssertEqual(Set(starred.threads.map(\.id)), [try thread("s1"), try thread("s4")], "each flagged thread once, any folder")
        _ = try actions.starThreads(ids: [try thread("s2")])
        _ = try actions.unstarThreads(ids: [try thread("s4")])
        XCTAssertEqual(Set(try list.fetchThreads(accountId: accountName, folderId: "Starred").threads.map(\.id)),
                       [try thread("s1"), try thread("s2")])
        let out = try mailstore(["project", "--view", "threads", "--account", accountName, "--folder", "Starred", "--json"]).stdout
        XCTAssertTrue(out.contains("Starred one") && !out.contains("Old star"), out)
    }

    func testABatchSpansAccountsAndAnUnknownThreadFailsAlone() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "a1", subject: "First account", parent: nil, flags: [])], via: c)
        try addAccount()
        try sync()
        // A second account, another user of the same server.
        let other = try imap.newUser("batch")
        let c2 = try IMAPConnection.connect(ServerEndpoint(host: imap.host, port: imap.tlsPort, security: .tls, caFile: imap.caFile, timeoutSeconds: 30))
        defer { c2.logout() }
        try c2.authenticate(username: other.user, credential: .password(other.password), mechanism: .plain)
        try fill("INBOX", [(id: "b1", subject: "Second account", parent: nil, flags: [])], via: c2)
        try store.addAccount(AccountSettings(name: "second", email: other.user, host: imap.host, port: imap.tlsPort, security: "tls",
                                             credential: .file(other.passwordFile), caFile: imap.caFile))
        let second = try XCTUnwrap(try views.account(named: "second")?.settings)
        _ = try SyncEngine(store: store, account: second).run()
        let t1 = try thread("a1"), t2 = try thread("b1", account: "second")

        let r = try mailstore(["archive", t1, "no-such-thread", t2, "--json", "--push"], expect: 4)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let applied = try XCTUnwrap(json["actions"] as? [[String: Any]])
        XCTAssertEqual(applied.compactMap { $0["account"] as? String }, ["second", accountName])
        XCTAssertEqual(applied.compactMap { $0["threads"] as? [String] }, [[t2], [t1]])
        let failures = try XCTUnwrap(json["failures"] as? [[String: Any]])
        XCTAssertEqual(failures.compactMap { $0["thread"] as? String }, ["no-such-thread"])
        XCTAssertTrue((failures.first?["reason"] as? String)?.contains("no thread") == true, "\(failures)")
        // Both accounts' servers have it.
        XCTAssertEqual(try uids("INBOX", "a1", via: c), [])
        XCTAssertEqual(try uids("Archive", "a1", via: c).count, 1)
        XCTAssertEqual(try uids("INBOX", "b1", via: c2), [])
        XCTAssertEqual(try uids("Archive", "b1", via: c2).count, 1)

        // The library's batch: one failure per thread whose account cannot take the action, the rest applied.
        try fill("INBOX", [(id: "a2", subject: "Again", parent: nil, flags: [])], via: c)
        try sync()
        let result = actions.batch(.archive, ids: [t2, try thread("a2"), t2])
        XCTAssertEqual(result.actions.map(\.account), [accountName])
        XCTAssertEqual(result.failures.map(\.thread), [t2], "archived already: nothing to do there, once")
        XCTAssertEqual(ErrorCategory(of: result.failures[0].error), .refused)
    }
}
