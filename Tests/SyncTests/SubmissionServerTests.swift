import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailParser
import MailStore
import TestSupport
import XCTest

/// The outbox against submission servers that lack what a message might need or misbehave
/// (Tools/test-server/hostile-smtp.py over TLS, with the test SMTP server's certificate); Sent on the test Dovecot.
final class SubmissionServerTests: SyncTestCase {
    private var drafts: DraftsUseCase { DraftsUseCase(store: store) }
    private var outbox: OutboxUseCase { OutboxUseCase(store: store) }

    /// Starts the hostile server in `mode` and adds the test account with it as its SMTP server (auth `plain`).
    private func account(sendingTo mode: String) throws -> HostileSMTPServer {
        let smtp = try TestServers.smtp(.aiosmtpd)
        let peer = try HostileSMTPServer(mode: mode, caFile: smtp.caFile)
        addTeardownBlock { peer.stop() }
        let bundle = dir.file("ca-bundle.pem")
        let pem = try String(contentsOfFile: imap.caFile, encoding: .utf8) + "\n" + String(contentsOfFile: smtp.caFile, encoding: .utf8)
        try pem.write(toFile: bundle, atomically: true, encoding: .utf8)
        try store.addAccount(AccountSettings(name: accountName, email: user, host: imap.host, port: imap.tlsPort, security: "tls",
                                             credential: .file(passwordFile), caFile: bundle, smtpHost: "127.0.0.1", smtpPort: peer.port,
                                             smtpSecurity: "tls", smtpUsername: "someone", smtpCredential: .file(passwordFile)))
        return peer
    }

    private func lastFailure(_ draftID: String) throws -> SendFailed? {
        var failure: SendFailed?
        try store.log.scan(filter: ScanFilter(types: [.sendFailed], stream: .draft(draftID))) { ev in
            if case .sendFailed(let p) = try ev.decode() { failure = p }
            return true
        }
        return failure
    }

    /// RFC 6152: text beyond ASCII goes out 7-bit, so a server without 8BITMIME takes it; a domain beyond ASCII goes
    /// as its A-label (no SMTPUTF8 needed); and Sent holds the very bytes that were sent.
    func testANonASCIIMessageGoesThroughAServerWithout8BITMIMEAndSentHoldsWhatWasSent() throws {
        let peer = try account(sendingTo: "no-8bitmime")
        let body = "Grüße aus Köln ☕\nВсего хорошего!\n"
        let (d, problems) = try drafts.create(account: accountName, DraftInput(to: "Jöran <joran@exämple.org>", cc: "bob@example.com",
                                                                              subject: "Grüße", body: body))
        XCTAssertTrue(problems.isEmpty, "\(problems)")
        let queued = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(d.draftID), .sent, "\(String(describing: try? lastFailure(d.draftID)))")
        let sent = try XCTUnwrap(peer.messages().first)
        XCTAssertFalse(sent.contains { $0 >= 0x80 }, "an 8-bit byte went to a server without 8BITMIME")
        let parsed = MailParser.parse(sent)
        XCTAssertEqual(parsed.messageID, queued.messageID)
        XCTAssertEqual(parsed.textBody, body)
        XCTAssertEqual(parsed.subject, "Grüße")
        XCTAssertEqual(parsed.to.map(\.email), ["joran@xn--exmple-cua.org"])
        XCTAssertEqual(parsed.to.first?.name, "Jöran")
        let transcript = peer.transcript()
        XCTAssertTrue(transcript.contains("RCPT TO:<joran@xn--exmple-cua.org>"), "\(transcript)")
        XCTAssertFalse(transcript.contains { $0.hasPrefix("MAIL FROM") && ($0.contains("8BITMIME") || $0.contains("SMTPUTF8")) })
        // Filed in Sent byte for byte as sent.
        let c = try server()
        defer { c.logout() }
        _ = try c.select(MailboxName(path("Sent")), readOnly: true)
        let uids = try c.uidSearch([.header("Message-ID", queued.messageID)])
        XCTAssertEqual(uids.count, 1)
        var filed: [[UInt8]] = []
        try c.uidFetch(UIDSet(uids), [.uid, .body(.entire)]) { m in if let bytes = m.body { filed.append(bytes) } }
        XCTAssertEqual(filed, [sent])
    }

    /// An address whose local part is beyond ASCII needs SMTPUTF8, whatever the body: said so, not 8BITMIME.
    func testALocalPartBeyondASCIIWithoutSMTPUTF8SaysToUseAnASCIIAddress() throws {
        let peer = try account(sendingTo: "no-8bitmime")
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "jöran@exämple.org", subject: "Hej", body: "Hallå\n"))
        _ = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(d.draftID), .failed)
        let failure = try XCTUnwrap(try lastFailure(d.draftID))
        XCTAssertTrue(failure.reason.contains("jöran@exämple.org is not ASCII and the SMTP server does not offer SMTPUTF8"), failure.reason)
        XCTAssertFalse(failure.reason.contains("8BITMIME"), failure.reason)
        XCTAssertTrue(failure.permanent)
        XCTAssertTrue(peer.messages().isEmpty)
    }

    /// The account's default `plain` with a server offering only AUTH LOGIN (over TLS): sent with LOGIN.
    func testAServerOfferingOnlyLoginTakesThePassword() throws {
        let peer = try account(sendingTo: "login-only")
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Login", body: "Hi\n"))
        _ = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(d.draftID), .sent, "\(String(describing: try? lastFailure(d.draftID)))")
        XCTAssertEqual(peer.transcript().first, "AUTH LOGIN")
        XCTAssertEqual(peer.messages().count, 1)
    }

    /// A server that keeps asking in AUTH is a glitch: retried with the backoff, and the reason does not contradict itself.
    func testAServerThatKeepsAskingInAuthIsRetriedWithBackoff() throws {
        _ = try account(sendingTo: "auth-loop")
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Loop", body: "Hi\n"))
        _ = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(d.draftID), .failed)
        let failure = try XCTUnwrap(try lastFailure(d.draftID))
        XCTAssertFalse(failure.permanent, failure.reason)
        XCTAssertNotNil(failure.retryAt)
        XCTAssertTrue(failure.reason.contains("kept asking during AUTH"), failure.reason)
        XCTAssertFalse(failure.reason.contains("not retried"), failure.reason)
    }

    /// A 421 to the greeting (a server at its connection limit) pauses the account: the next round tries none of its
    /// messages (it had tried the next one, a connection each); a message the user retries goes, and its sending ends
    /// the pause: the round after it sends the other one due.
    func testA421ToTheGreetingPausesTheAccountUntilAMessageIsSent() throws {
        let peer = try account(sendingTo: "greet-421-once")
        let ids = try (0..<3).map { i in
            let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Busy \(i)", body: "Hello"))
            _ = try outbox.queue(d.draftID, undoDelay: 0)
            return d.draftID
        }
        var told: [(String, OutboxItem.State)] = []
        _ = try outbox.deliverDue(account: accountName, done: { told.append(($0, $1)) })
        XCTAssertEqual(told.map(\.1), [.failed])
        let first = try XCTUnwrap(told.first?.0)
        XCTAssertEqual(try lastFailure(first)?.serverFailure, true, "\(String(describing: try? lastFailure(first)))")
        told = []
        var waiting: [String] = []
        _ = try outbox.deliverDue(account: accountName, done: { told.append(($0, $1)) }, paused: { waiting = $1 })
        XCTAssertTrue(told.isEmpty, "\(told)")
        XCTAssertEqual(Set(waiting), Set(ids.filter { $0 != first }))
        XCTAssertEqual(peer.transcript().filter { $0.hasPrefix("MAIL FROM") }, [], "nothing offered")
        let second = try XCTUnwrap(ids.first { $0 != first })
        XCTAssertEqual(try outbox.deliver(second), .sent, "a message the user retries goes")
        told = []
        _ = try outbox.deliverDue(account: accountName, done: { told.append(($0, $1)) })
        XCTAssertEqual(told.map(\.1), [.sent], "the pause ended with the message sent: the third goes (the first waits for its retry time)")
        XCTAssertEqual(told.first?.0, ids.first { $0 != first && $0 != second })
        XCTAssertEqual(peer.messages().count, 2)
    }
}
