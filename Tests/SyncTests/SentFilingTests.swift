import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import SecureTransport
import TestSupport
import XCTest

/// Nothing sent is lost from Sent: a send before the first sync still files the copy (the folders are
/// discovered then), and a filing that cannot be done is kept pending and completed by the next sync.
/// Real Dovecot and the real SMTP test server.
final class SentFilingTests: SyncTestCase {
    var smtp: SMTPServer!
    var bundle: String!

    override func setUpWithError() throws {
        try super.setUpWithError()
        (smtp, bundle) = try smtpWithCABundle()
    }

    private func add(imapPort: UInt16) throws {
        try store.addAccount(AccountSettings(name: accountName, email: user, host: imap.host, port: imapPort, security: "tls",
                                             credential: .file(passwordFile), caFile: bundle, smtpHost: smtp.host,
                                             smtpPort: smtp.submissionPort, smtpSecurity: "starttls", smtpUsername: smtp.user,
                                             smtpCredential: .file(smtp.passwordFile)))
    }

    private func send(_ subject: String) throws -> (String, String) {
        let (d, problems) = try DraftsUseCase(store: store).create(account: accountName, DraftInput(
            to: "bob@example.com", subject: subject, body: "Hello\n"))
        XCTAssertTrue(problems.isEmpty, "\(problems)")
        let outbox = OutboxUseCase(store: store)
        let queued = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliverWhenDue(d.draftID), .sent)
        return (d.draftID, queued.messageID)
    }

    private func inSent(_ messageID: String) throws -> Int {
        let c = try server()
        defer { c.logout() }
        _ = try c.select(MailboxName(path("Sent")), readOnly: true)
        return try c.uidSearch([.header("Message-ID", messageID), .seen]).count
    }

    func testASendBeforeTheFirstSyncIsFiledInSent() throws {
        try add(imapPort: imap.tlsPort)
        XCTAssertTrue(try views.folders(account: accountName).isEmpty, "no sync yet")
        let (draftID, messageID) = try send("Before the first sync")
        XCTAssertEqual(try inSent(messageID), 1, "the copy is in Sent")
        XCTAssertNil(try views.draft(id: draftID), "filed, so the draft is gone")
        XCTAssertTrue(try views.folders(account: accountName).contains { $0.role == .sent }, "the folders were discovered")
        XCTAssertEqual(try OutboxUseCase(store: store).unfiledSent(account: accountName), [])
    }

    func testAFilingThatFailsStaysPendingAndTheNextSyncCompletesIt() throws {
        // IMAP unreachable (nothing listens on port 9 of 127.0.0.1), SMTP fine: it goes out but cannot be filed.
        try add(imapPort: 9)
        let (draftID, messageID) = try send("Filed later")
        XCTAssertNotNil(try views.draft(id: draftID), "not filed: the draft is kept")
        XCTAssertEqual(try views.outboxItem(draftID: draftID)?.state, .sent)
        let pending = try OutboxUseCase(store: store).unfiledSent(account: accountName)
        XCTAssertEqual(pending, [OutboxUseCase.UnfiledSent(draftID: draftID, messageID: messageID)])
        XCTAssertEqual(try inSent(messageID), 0)
        // The account fixed (added again with the right port): the next sync files it, once.
        try store.removeAccount(named: accountName)
        try add(imapPort: imap.tlsPort)
        XCTAssertEqual(try sync().sentFiled, 1)
        XCTAssertEqual(try inSent(messageID), 1)
        XCTAssertNil(try views.draft(id: draftID))
        XCTAssertEqual(try sync().sentFiled, 0)
        XCTAssertEqual(try inSent(messageID), 1, "filed once")
    }

    /// A filing whose APPEND reached the server but whose answer was lost (a dropped connection, a timeout, a process
    /// killed) is pending and the copy is in Sent already: the next filing finds it by its Message-ID and appends no
    /// second copy.
    func testAPendingFilingWhoseCopyIsInSentAlreadyAppendsNoSecond() throws {
        try add(imapPort: 9)
        let (draftID, messageID) = try send("Answer lost")
        try store.removeAccount(named: accountName)
        try add(imapPort: imap.tlsPort)
        let c = try server()
        let copy = "From: \(user!)\r\nTo: bob@example.com\r\nSubject: Answer lost\r\nMessage-ID: \(messageID)\r\n\r\nHello\r\n"
        _ = try c.append(to: MailboxName(path("Sent")), message: Array(copy.utf8), flags: ["\\Seen"])
        c.logout()
        XCTAssertEqual(try sync().sentFiled, 1, "completed")
        XCTAssertEqual(try inSent(messageID), 1, "no second copy")
        XCTAssertNil(try views.draft(id: draftID))
    }

    /// A sync does not file a sent message while another process sends the account's mail: that process may be
    /// filing the same message (two APPENDs, two copies in Sent). The next sync files it, once.
    func testAPendingFilingIsLeftToTheProcessSendingNow() throws {
        try add(imapPort: 9)
        let (draftID, messageID) = try send("Filed by one process")
        try store.removeAccount(named: accountName)
        try add(imapPort: imap.tlsPort)
        let sender = try AccountLock(store: store.directory, kind: "send", account: accountName, waitSeconds: 0)
        XCTAssertEqual(try sync().sentFiled, 0, "left to the process holding the send lock")
        XCTAssertEqual(try inSent(messageID), 0)
        XCTAssertNotNil(try views.draft(id: draftID))
        sender.release()
        XCTAssertEqual(try sync().sentFiled, 1)
        XCTAssertEqual(try inSent(messageID), 1)
    }

    /// A provider that needs the Sent copy APPENDed (Yahoo) on an account with no Sent folder: `send`, `outbox` and
    /// `sync` (its warning and JSON) say why the message is not filed and what to do; once a Sent folder is made, the
    /// next sync files it. Until 2026-12-07 each said "not yet filed" (or nothing) for ever, the reason dropped.
    func testWithoutASentFolderSendOutboxAndSyncSayWhyAndTheNextSyncAfterOneIsMadeFilesIt() throws {
        let u = try imap.newUser("nosent", layout: "plain")
        user = u.user
        passwordFile = u.passwordFile
        var payload = try AccountSettings(name: accountName, email: user, host: imap.host, port: imap.tlsPort, security: "tls",
                                          credential: .file(passwordFile), caFile: bundle, smtpHost: smtp.host,
                                          smtpPort: smtp.submissionPort, smtpSecurity: "starttls", smtpUsername: smtp.user,
                                          smtpCredential: .file(smtp.passwordFile)).validated()
        payload.provider = "yahoo"
        try store.commit([NewEvent(event: .accountAdded(payload), account: accountName, stream: .account(accountName), actor: .user)])
        try sync()
        let (d, problems) = try DraftsUseCase(store: store).create(account: accountName, DraftInput(
            to: "bob@example.com", subject: "No Sent folder", body: "Hello\n"))
        XCTAssertTrue(problems.isEmpty, "\(problems)")
        let send = try mailstore(["send", d.draftID, "--undo-delay", "0"])
        XCTAssertTrue(send.stdout.contains("Sent \(d.draftID)"), send.stdout)
        XCTAssertTrue(send.stderr.contains("has no Sent folder on the server: create one"), "send says why: \(send.stderr)")
        let outbox = try mailstore(["outbox"])
        XCTAssertTrue((outbox.stdout + outbox.stderr).contains("has no Sent folder on the server: create one"), "outbox says why: \(outbox.stdout)")
        let plain = try mailstore(["sync"])
        XCTAssertTrue(plain.stderr.contains("1 sent message not filed in the server's Sent folder: account \(accountName) has no Sent folder"),
                      "sync says why: \(plain.stderr)")
        let json = try mailstore(["sync", "--json"])
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        XCTAssertEqual(report["sentUnfiled"] as? Int, 1, json.stdout)
        XCTAssertTrue((report["sentUnfiledReason"] as? String)?.contains("create one there") ?? false, json.stdout)

        let c = try server()
        defer { c.logout() }
        try c.create(MailboxName("Sent"))
        let filed = try mailstore(["sync", "--json"])
        let after = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(filed.stdout.utf8)) as? [String: Any], filed.stdout)
        XCTAssertEqual(after["sentFiled"] as? Int, 1, filed.stdout)
        XCTAssertEqual(after["sentUnfiled"] as? Int ?? 0, 0, filed.stdout)
        _ = try c.select(MailboxName("Sent"), readOnly: true)
        XCTAssertEqual(try c.uidSearch([.all]).count, 1, "filed in the new Sent folder")
    }
}
