import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import SecureTransport
import TestSupport
import XCTest

/// Gmail's label semantics against the repository's Gmail MOCK (Tools/test-server/gmail-mock.py), not Gmail: a model
/// of what Google documents (folders are labels, All Mail holds every message not in Spam or Trash, a folder gives a
/// message its own UID). The account reaches it at 127.0.0.1 with `--provider gmail` (`declaredProvider`); the mock
/// uses the test IMAP server's certificate.
final class GmailMockSyncTests: SyncTestCase {
    private var gmail: GmailMockServer?
    private var actions: ManageThreadActionsUseCase { ManageThreadActionsUseCase(store: store) }

    override func tearDown() {
        gmail?.stop()
        gmail = nil
        super.tearDown()
    }

    /// Starts the mock holding `messages` and adds the test account, declared Gmail, pointing at it.
    @discardableResult
    private func startGmail(_ messages: [GmailMockServer.Message]) throws -> GmailMockServer {
        let g = try GmailMockServer(tlsDirectory: imap.dir + "/tls", messages: messages)
        gmail = g
        var settings = AccountSettings(name: accountName, email: "user@gmail.com", host: "127.0.0.1", port: g.port, security: "tls",
                                       auth: "plain", credential: .file(passwordFile), caFile: imap.caFile)
        settings.declaredProvider = "gmail"
        try store.addAccount(settings)
        return g
    }

    /// Another client of the mock (Gmail's web client, say), logged in.
    private func otherClient() throws -> IMAPConnection {
        let c = try IMAPConnection.connect(ServerEndpoint(host: "127.0.0.1", port: try XCTUnwrap(gmail).port, security: .tls,
                                                          caFile: imap.caFile, timeoutSeconds: 30))
        try c.authenticate(username: "user@gmail.com", credential: .password("x"), mechanism: .plain)
        return c
    }

    /// The UIDs of the message `id@example.org` in `folder`, as another client sees them.
    private func uids(_ folder: String, _ id: String, via c: IMAPConnection) throws -> [UInt32] {
        _ = try c.select(MailboxName(folder), readOnly: false)
        return try c.uidSearch([.header("Message-ID", "\(id)@example.org")])
    }

    /// The views' email of the message `id@example.org` (its one copy), nil when none.
    private func email(_ id: String) throws -> (id: String, folder: String, thread: String)? {
        guard let copy = try views.copies(account: accountName, messageID: "\(id)@example.org").first,
              let e = try views.emailRecord(id: copy.emailID) else { return nil }
        return (copy.emailID, e.folder, e.threadID)
    }

    /// The subjects of the threads listed in `folder`.
    private func listed(_ folder: String) throws -> [String] {
        try views.threadPage(scope: accountName, folder: folder, category: nil, after: nil, limit: 100).threads.map(\.subject)
    }

    private static func inbox(_ n: Int, _ subject: String, labels: [String] = ["\\Inbox"]) -> GmailMockServer.Message {
        GmailMockServer.Message(gmailID: 1000 + n, messageID: "m\(n)@example.org", subject: subject, labels: labels, flags: ["\\Seen"])
    }

    /// The groundwork: an account declared Gmail on a loopback host gets Gmail's folder mapping (All Mail recorded
    /// for its role, never selected) and its labels synced.
    func testADeclaredGmailAccountSyncsItsLabelsButNeverAllMail() throws {
        let g = try startGmail([Self.inbox(1, "In the inbox"), Self.inbox(2, "Labelled Work", labels: ["\\Inbox", "Work"])])
        XCTAssertEqual(try views.account(named: accountName)?.settings.provider, "gmail")
        try sync()
        XCTAssertEqual(try views.folders(account: accountName).first { $0.role == .all }?.path, "[Gmail]/All Mail")
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "INBOX"), 2)
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "Work"), 1)
        XCTAssertNil(try views.syncState(account: accountName, folder: "[Gmail]/All Mail"))
        XCTAssertFalse(g.commands().contains { $0.contains("[Gmail]/All Mail") && ($0.contains("SELECT") || $0.contains("EXAMINE")) },
                       g.commands().joined(separator: "\n"))
    }
}
