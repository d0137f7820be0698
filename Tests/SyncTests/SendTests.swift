import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailParser
@testable import MailStore
import Projections
import SecureTransport
import TestSupport
import XCTest

/// Drafts, the send queue with undo, SMTP submission against the real aiosmtpd, and filing in the real
/// Dovecot's Sent folder; the `...OnExim` tests send through Exim instead, the `...OnCourier`, `...OnCyrus`
/// tests file in Courier-IMAP's or Cyrus IMAP's Sent folder.
final class SendTests: SyncTestCase {
    var smtp: SMTPServer!
    var bundle: String!

    override func setUpWithError() throws {
        try super.setUpWithError()
        smtp = try TestServers.smtp(SMTPPersonality(testName: name))
        try addAccount(smtp: smtp)
        bundle = dir.file("ca-bundle.pem")
        try sync()
    }

    private var drafts: DraftsUseCase { DraftsUseCase(store: store) }
    private var outbox: OutboxUseCase { OutboxUseCase(store: store) }

    private func spooled(_ messageID: String) throws -> (SMTPServer.SpoolEntry, ParsedMessage)? {
        for e in try smtp.spoolEntries() {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: smtp.spoolDir + "/" + e.file)))
            let parsed = MailParser.parse(bytes)
            if parsed.messageID == messageID { return (e, parsed) }
        }
        return nil
    }

    /// How many messages the SMTP server took from this test's account (its envelope sender): the server is shared
    /// with the tests running beside this one.
    private func sentByThisTest() throws -> Int {
        try smtp.spoolEntries().filter { $0.from.lowercased() == user.lowercased() }.count
    }

    func testASentMessageArrivesCorrectLandsInSentAndTheDraftIsGone() throws {
        let file = dir.file("report.pdf")
        let pdf = Data((0..<3000).map { UInt8($0 % 251) })
        try pdf.write(to: URL(fileURLWithPath: file))
        let (d, problems) = try drafts.create(account: accountName, DraftInput(
            to: "Bob Example <bob@example.com>", cc: "carol@example.com", bcc: "dave@example.com", subject: "Grüße aus Köln",
            body: "Hallo Bob,\nanbei der Bericht.\n", attach: [file]))
        XCTAssertTrue(problems.isEmpty, "\(problems)")
        let queued = try outbox.queue(d.draftID, undoDelay: 0.3)
        XCTAssertEqual(try views.outboxItem(draftID: d.draftID)?.state, .queued)
        XCTAssertEqual(try outbox.deliverWhenDue(d.draftID), .sent)
        let (entry, parsed) = try XCTUnwrap(try spooled(queued.messageID))
        XCTAssertEqual(parsed.subject, "Grüße aus Köln")
        XCTAssertEqual(parsed.to.map(\.email), ["bob@example.com"])
        XCTAssertEqual(parsed.cc.map(\.email), ["carol@example.com"])
        XCTAssertTrue(parsed.bcc.isEmpty, "Bcc never in the headers")
        XCTAssertEqual(Set(entry.to), ["bob@example.com", "carol@example.com", "dave@example.com"])
        XCTAssertEqual(parsed.attachments.map(\.filename), ["report.pdf"])
        XCTAssertTrue(parsed.snippet.hasPrefix("Hallo Bob"), parsed.snippet)
        XCTAssertNil(try views.draft(id: d.draftID), "the draft is gone")
        // Filed in Sent with \Seen.
        let c = try server()
        defer { c.logout() }
        _ = try c.select(MailboxName(path("Sent")), readOnly: true)
        let uids = try c.uidSearch([.header("Message-ID", queued.messageID), .seen])
        XCTAssertEqual(uids.count, 1)
        var types: [EventType] = []
        try store.log.scan(filter: ScanFilter(stream: .draft(d.draftID))) { ev in
            types.append(ev.envelope.type)
            return true
        }
        XCTAssertEqual(types, [.draftSaved, .messageQueued, .sendStarted, .messageSent, .draftDeleted])
        // The copy in Sent names the blind copy's recipient (the message submitted never did).
        try sync()
        let sent = try views.syncedCopies(account: accountName, folder: path("Sent")).values.compactMap { try store.email(id: $0.emailID)?.payload }
        XCTAssertEqual(sent.filter { $0.messageID == queued.messageID }.map { $0.bcc.map(\.email) }, [["dave@example.com"]])
    }

    func testARepliesRecipientsAndAForwardsAttachments() throws {
        let c = try server()
        defer { c.logout() }
        let pdf = (0..<5000).map { UInt8($0 % 253) }
        let raw = "From: Bob <bob@example.com>\r\nReply-To: The List <list@lists.example.org>\r\n"
            + "To: The List <list@lists.example.org>, \(user!)\r\nCc: carol@example.com, Dave <dave@example.com>\r\n"
            + "Subject: Agenda\r\nDate: 02 Mar 2026 10:00:00 +0000\r\nMessage-ID: <agenda@example.com>\r\n"
            + "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b1\r\n\r\n"
            + "--b1\r\nContent-Type: text/plain\r\n\r\nThe agenda is attached.\r\n"
            + "--b1\r\nContent-Type: application/pdf; name=\"../../etc/agenda\u{7}.pdf\"\r\nContent-Disposition: attachment; filename=\"../../etc/agenda\u{7}.pdf\"\r\n"
            + "Content-Transfer-Encoding: base64\r\n\r\n" + Data(pdf).base64EncodedString(options: .lineLength76Characters) + "\r\n--b1--\r\n"
        _ = try c.append(to: MailboxName("INBOX"), message: Array(raw.utf8), flags: [])
        try sync()
        let original = try XCTUnwrap(try views.syncedCopies(account: accountName, folder: "INBOX").values.first).emailID
        // A reply goes to Reply-To; a reply to all to it, the To and the Cc, not to me.
        let (r, _) = try drafts.create(account: accountName, DraftInput(body: "Fine.", replyTo: original))
        XCTAssertEqual(r.to.map(\.email), ["list@lists.example.org"])
        XCTAssertEqual(r.cc.map(\.email), [])
        let (all, _) = try drafts.create(account: accountName, DraftInput(body: "Fine.", replyTo: original, replyAll: true))
        XCTAssertEqual(all.to.map(\.email), ["list@lists.example.org"])
        XCTAssertEqual(all.cc.map(\.email), ["carol@example.com", "dave@example.com"])
        XCTAssertEqual(all.inReplyTo, "agenda@example.com")
        // A forward carries the attachment, its name a name and not a path; the message sent has it byte for byte.
        let (f, problems) = try drafts.create(account: accountName, DraftInput(to: "erin@example.com", forward: original))
        XCTAssertEqual(problems, [])
        XCTAssertEqual(f.attachments.map(\.filename), ["agenda.pdf"])
        XCTAssertEqual(f.attachments.map(\.mimeType), ["application/pdf"])
        XCTAssertEqual(f.attachments.map(\.size), [5000])
        let queued = try outbox.queue(f.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(f.draftID), .sent)
        let spool = try smtp.spoolEntries()
        for e in spool {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: smtp.spoolDir + "/" + e.file)))
            let parsed = MailParser.parse(bytes)
            guard parsed.messageID == queued.messageID else { continue }
            XCTAssertEqual(parsed.subject, "Fwd: Agenda")
            XCTAssertEqual(parsed.attachments.map(\.filename), ["agenda.pdf"])
            XCTAssertEqual(parsed.attachments.first?.decodedBody(in: bytes), pdf)
            return
        }
        XCTFail("the forward was not delivered")
    }

    /// A forwarded text attachment was sent without its charset (an ISO-8859-1 or Shift_JIS file read as US-ASCII or
    /// UTF-8): the message the SMTP server takes names each one's on its `Content-Type`, the bytes unchanged; one whose
    /// charset is no token goes without one, as before.
    func testAForwardedTextAttachmentIsSentWithItsCharset() throws {
        let c = try server()
        defer { c.logout() }
        let latin1: [UInt8] = Array("Gr".utf8) + [0xFC, 0xDF] + Array("e aus K".utf8) + [0xF6, 0x6C, 0x6E, 0x0D, 0x0A]
        let sjis: [UInt8] = [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x0D, 0x0A]
        func part(_ type: String, _ name: String, _ bytes: [UInt8]) -> String {
            "--b1\r\nContent-Type: \(type)\r\nContent-Disposition: attachment; filename=\"\(name)\"\r\n"
                + "Content-Transfer-Encoding: base64\r\n\r\n" + Data(bytes).base64EncodedString() + "\r\n"
        }
        let raw = "From: Bob <bob@example.com>\r\nTo: \(user!)\r\nSubject: Notes\r\nDate: 02 Mar 2026 10:00:00 +0000\r\n"
            + "Message-ID: <notes@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b1\r\n\r\n"
            + "--b1\r\nContent-Type: text/plain\r\n\r\nThe notes.\r\n"
            + part("text/plain; charset=ISO-8859-1", "koeln.txt", latin1) + part("text/plain; charset=Shift_JIS", "nihon.txt", sjis)
            + part("text/plain; charset=\"x y\"", "odd.txt", latin1) + "--b1--\r\n"
        _ = try c.append(to: MailboxName("INBOX"), message: Array(raw.utf8), flags: [])
        try sync()
        let original = try XCTUnwrap(try views.syncedCopies(account: accountName, folder: "INBOX").values.first).emailID
        let (f, problems) = try drafts.create(account: accountName, DraftInput(to: "erin@example.com", forward: original))
        XCTAssertEqual(problems, [])
        XCTAssertEqual(f.attachments.map(\.charset), ["iso-8859-1", "shift_jis", nil])
        let queued = try outbox.queue(f.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(f.draftID), .sent)
        let (entry, parsed) = try XCTUnwrap(try spooled(queued.messageID))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: smtp.spoolDir + "/" + entry.file)))
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: " ")
        XCTAssertTrue(text.contains("Content-Type: text/plain; charset=iso-8859-1; name=\"koeln.txt\"\r\n"), text)
        XCTAssertTrue(text.contains("Content-Type: text/plain; charset=shift_jis; name=\"nihon.txt\"\r\n"), text)
        XCTAssertTrue(text.contains("Content-Type: text/plain; name=\"odd.txt\"\r\n"), text)
        XCTAssertEqual(parsed.attachments.map(\.filename), ["koeln.txt", "nihon.txt", "odd.txt"])
        XCTAssertEqual(parsed.attachments.map { $0.decodedBody(in: bytes) }, [latin1, sjis, latin1], "byte for byte")
        let named = parsed.root.children.filter { $0.filename != nil }
        XCTAssertEqual(named.map(\.charset), ["iso-8859-1", "shift_jis", nil], "as a reader finds them")
    }

    /// RFC 5321 §2.4: a local part is case-sensitive, a domain is not. `A@x.example` and `a@X.example` are two
    /// mailboxes and each gets its RCPT; `a@x.example` and `a@X.EXAMPLE` are one and get one (until 2026-12-07 the
    /// whole address was compared without case, and `a@X.example` never got the message).
    func testRecipientsDifferingInTheLocalPartsCaseGetAnRCPTEachAndInTheDomainsCaseOne() throws {
        let (two, _) = try drafts.create(account: accountName, DraftInput(to: "A@x.example", cc: "a@X.example", subject: "Two", body: "Hi\n"))
        let (one, _) = try drafts.create(account: accountName, DraftInput(to: "a@x.example", bcc: "a@X.EXAMPLE", subject: "One", body: "Hi\n"))
        var envelopes: [[String]] = []
        for d in [two, one] {
            let queued = try outbox.queue(d.draftID, undoDelay: 0)
            XCTAssertEqual(try outbox.deliver(d.draftID), .sent)
            envelopes.append(try XCTUnwrap(try spooled(queued.messageID)).0.to)
        }
        XCTAssertEqual(envelopes, [["A@x.example", "a@X.example"], ["a@x.example"]])
    }

    /// A reply to all keeps two mailboxes that differ in the case of their local part (RFC 5321 §2.4) and one that
    /// differs in its domain's case only once; the user's own address is left out whatever its case (their own mailbox).
    func testAReplyToAllKeepsMailboxesDifferingInTheLocalPartsCaseAndLeavesOutTheUsersOwnInAnyCase() throws {
        let c = try server()
        defer { c.logout() }
        let raw = "From: Bob <bob@example.com>\r\nTo: \(user!.uppercased())\r\nCc: A@x.example, a@X.example, a@x.EXAMPLE\r\n"
            + "Subject: Cases\r\nDate: 02 Mar 2026 10:00:00 +0000\r\nMessage-ID: <cases@example.com>\r\n\r\nWho is who?\r\n"
        _ = try c.append(to: MailboxName("INBOX"), message: Array(raw.utf8), flags: [])
        try sync()
        let original = try XCTUnwrap(try views.syncedCopies(account: accountName, folder: "INBOX").values.first).emailID
        let (all, _) = try drafts.create(account: accountName, DraftInput(body: "Both.", replyTo: original, replyAll: true))
        XCTAssertEqual(all.to.map(\.email), ["bob@example.com"])
        XCTAssertEqual(all.cc.map(\.email), ["A@x.example", "a@X.example"])
    }

    func testAReplyHasItsSubjectThreadingAndQuote() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "orig", subject: "Re: Plans", parent: "older", flags: [])], via: c)
        try sync()
        let original = try XCTUnwrap(try views.syncedCopies(account: accountName, folder: "INBOX").values.first).emailID
        let (d, _) = try drafts.create(account: accountName, DraftInput(body: "Sounds good.", replyTo: original))
        XCTAssertEqual(d.subject, "Re: Plans", "never doubled")
        XCTAssertEqual(d.inReplyTo, "orig@example.com")
        XCTAssertEqual(d.references, ["older@example.com", "orig@example.com"])
        XCTAssertEqual(d.to.map(\.email), ["alice@example.com"])
        XCTAssertTrue(d.body.hasPrefix("Sounds good."))
        XCTAssertTrue(d.body.contains("wrote:") && d.body.contains("> Hello"), d.body)
        let queued = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(d.draftID), .sent)
        let (_, sent) = try XCTUnwrap(try spooled(queued.messageID))
        XCTAssertEqual(sent.inReplyTo, ["orig@example.com"])
        XCTAssertEqual(sent.references, ["older@example.com", "orig@example.com"])
        XCTAssertEqual(sent.subject, "Re: Plans")
        let (f, _) = try drafts.create(account: accountName, DraftInput(forward: original))
        XCTAssertEqual(f.subject, "Fwd: Re: Plans")
    }

    func testUndoWithinTheDelaySendsNothing() throws {
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Oops", body: "Not yet"))
        let before = try sentByThisTest()
        _ = try outbox.queue(d.draftID, undoDelay: 3)
        try outbox.undo(d.draftID)
        XCTAssertEqual(try outbox.deliverWhenDue(d.draftID), .draft)
        XCTAssertEqual(try sentByThisTest(), before, "nothing reached SMTP")
        XCTAssertEqual(try views.draft(id: d.draftID)?.latest.subject, "Oops", "the draft is back")
        XCTAssertThrowsError(try outbox.undo(d.draftID))
    }

    func testSendingIsRefusedUntilThereIsAValidRecipientAndABody() throws {
        let (d, problems) = try drafts.create(account: accountName, DraftInput(to: "not-an-address, bob@", subject: "x", body: ""))
        XCTAssertEqual(problems.count, 2, "\(problems)")
        XCTAssertThrowsError(try outbox.queue(d.draftID, undoDelay: 0)) { error in
            XCTAssertTrue("\(error)".contains("valid recipient") && "\(error)".contains("body"), "\(error)")
        }
        let (fixed, _) = try drafts.edit(d.draftID, DraftInput(to: "bob@example.com", body: "Now"))
        XCTAssertEqual(fixed.draftVersion, 2)
        XCTAssertNoThrow(try outbox.queue(d.draftID, undoDelay: 60))
        try outbox.cancel(d.draftID)
    }

    func testA5xxFailsWithTheReasonAnd4xxAndDropsAreRetried() throws {
        for (to, permanent) in [("fail5xx@example.com", true), ("fail4xx@example.com", false), ("drop@example.com", false)] {
            let (d, _) = try drafts.create(account: accountName, DraftInput(to: to, subject: to, body: "test"))
            _ = try outbox.queue(d.draftID, undoDelay: 0)
            XCTAssertEqual(try outbox.deliver(d.draftID), .failed, to)
            let item = try XCTUnwrap(try views.outboxItem(draftID: d.draftID))
            XCTAssertEqual(item.state, .failed)
            XCTAssertFalse((item.reason ?? "").isEmpty)
            var failure: SendFailed?
            try store.log.scan(filter: ScanFilter(types: [.sendFailed], stream: .draft(d.draftID))) { ev in
                if case .sendFailed(let p) = try ev.decode() { failure = p }
                return true
            }
            XCTAssertEqual(failure?.permanent, permanent, to)
            XCTAssertEqual(failure?.retryAt == nil, permanent, "retried with backoff unless permanent: \(to)")
            XCTAssertNotNil(try views.draft(id: d.draftID), "a failed message keeps its draft")
            if !permanent {
                // Retried: a second attempt goes to the server (and fails the same way here).
                XCTAssertEqual(try outbox.deliver(d.draftID), .failed)
                var attempts: [UInt32] = []
                try store.log.scan(filter: ScanFilter(types: [.sendStarted], stream: .draft(d.draftID))) { ev in
                    if case .sendStarted(let p) = try ev.decode() { attempts.append(p.attempt) }
                    return true
                }
                XCTAssertEqual(attempts, [1, 2], to)
            }
        }
        let (emails, badge) = try FetchThreadsUseCase(views: views).fetchOutboxEmails(accountId: accountName)
        XCTAssertEqual(badge, 3)
        XCTAssertTrue(emails.allSatisfy { $0.sendState == "failed" && $0.actions.contains("retry") }, "\(emails)")
        let listing = try mailstore(["outbox", "--account", accountName])
        XCTAssertTrue(listing.stdout.contains("3 queued or failed"), listing.stdout)
        XCTAssertEqual(listing.stdout.components(separatedBy: "failed  ").count - 1, 3, listing.stdout)
    }

    func testMoreRecipientsThanTheServerTakesGoInSeveralTransactionsAndARetryOnlyToThoseLeftOnExim() throws {
        // Exim takes 100 recipients a transaction (as Gmail); while `defer-short-data` exists in its folder, the
        // last, shorter transaction fails with 451 after the first was delivered (Tools/test-server/exim).
        let everyone = (0..<150).map { "u\($0)@example.org" }
        let (d, problems) = try drafts.create(account: accountName, DraftInput(to: everyone.joined(separator: ", "), subject: "All hands",
                                                                               body: "See you there."))
        XCTAssertTrue(problems.isEmpty, "\(problems)")
        let toggle = URL(fileURLWithPath: smtp.spoolDir).deletingLastPathComponent().appendingPathComponent("defer-short-data")
        try Data().write(to: toggle)
        defer { try? FileManager.default.removeItem(at: toggle) }
        let queued = try outbox.queue(d.draftID, undoDelay: 0)
        func arrived() throws -> [[String]] {
            try smtp.spoolEntries().filter { e in
                MailParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: smtp.spoolDir + "/" + e.file)))).messageID == queued.messageID
            }.map(\.to)
        }
        XCTAssertEqual(try outbox.deliver(d.draftID), .failed)
        XCTAssertEqual(try arrived(), [Array(everyone[..<100])], "the first transaction was delivered")
        let item = try XCTUnwrap(try views.outboxItem(draftID: d.draftID))
        XCTAssertTrue((item.reason ?? "").contains("100 of the 150 recipients"), item.reason ?? "")
        try FileManager.default.removeItem(at: toggle)
        // The retry sends to the 50 left, not again to the first 100.
        XCTAssertEqual(try outbox.deliver(d.draftID), .sent)
        let deliveries = try arrived()
        XCTAssertEqual(deliveries, [Array(everyone[..<100]), Array(everyone[100...])])
        var events: [DomainEvent] = []
        try store.log.scan(filter: ScanFilter(stream: .draft(d.draftID))) { ev in
            events.append(try ev.decode())
            return true
        }
        XCTAssertEqual(events.map(\.type), [.draftSaved, .messageQueued, .sendStarted, .messagePartlySent, .sendFailed,
                                            .sendStarted, .messageSent, .draftDeleted])
        guard case .messagePartlySent(let partly) = events[3] else { return XCTFail("\(events[3])") }
        XCTAssertEqual(partly.recipients, Array(everyone[..<100]))
        XCTAssertEqual(partly.messageID, queued.messageID)
        XCTAssertTrue(partly.serverResponse.hasPrefix("250"), partly.serverResponse)
    }

    /// A message whose reply never comes within the attempt's deadline (2 s here; the server's `stall` holds it an hour) is an
    /// unconfirmed delivery, and its reason, which `send`, `outbox` and `outbox send` print, says that it is sent again by
    /// itself and how to keep that from happening.
    /// A message goes out under the Message-ID its queuing recorded, whatever domain this build would give it now (the
    /// queuing is what the partial sends and the Sent filing refer to): here one recorded in another domain.
    func testAMessageQueuedWithAnotherMessageIDDomainKeepsItsMessageID() throws {
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Queued before", body: "Hello"))
        let record = try XCTUnwrap(try views.draft(id: d.draftID))
        let due = Timestamp.now
        let fresh = try outbox.compose(record, due: due).messageID
        let older = String(fresh.prefix { $0 != "@" }) + "@mail.old.example"
        try store.commit([NewEvent(event: .messageQueued(MessageQueued(draftID: d.draftID, draftVersion: record.latest.draftVersion,
                                                                       messageID: older, dueAt: due)),
                                   account: accountName, stream: .draft(d.draftID), actor: .user)])
        XCTAssertEqual(try outbox.deliver(d.draftID), .sent)
        XCTAssertNotNil(try spooled(older), "sent under the queuing's Message-ID")
        XCTAssertNil(try spooled(fresh))
    }

    func testAnUnconfirmedDeliverySaysItIsSentAgainByItselfAndHowToStopIt() throws {
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "stall@example.com", subject: "Unconfirmed", body: "Hello"))
        views = nil
        store = nil
        let start = Date()
        let r = try mailstore(["send", d.draftID, "--undo-delay", "0"], env: ["MAILSTORE_SEND_ATTEMPT_SECONDS": "2"], expect: 5)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "the attempt's 2 s, not the message's 10 minutes")
        XCTAssertTrue(r.stdout.contains("never confirmed"), r.stdout)
        XCTAssertTrue(r.stdout.contains("sends it again from"), r.stdout)
        XCTAssertTrue(r.stdout.contains("`mailstore outbox cancel \(d.draftID)` keeps it from being sent again"), r.stdout)
        let listing = try mailstore(["outbox", "--account", accountName]).stdout
        XCTAssertTrue(listing.contains("outbox cancel \(d.draftID)"), listing)
    }

    func testWithNoNetworkTheMessageStaysQueuedAndTheUserIsTold() throws {
        // An account whose SMTP server cannot be reached (nothing listens on port 9 of 127.0.0.1).
        // A mailbox of its own: a second account of the test's mailbox is refused.
        let other = try imap.newUser("offline")
        try store.addAccount(AccountSettings(name: "offline", email: other.user, host: imap.host, port: imap.tlsPort, security: "tls",
                                             credential: .file(other.passwordFile), caFile: imap.caFile, smtpHost: "127.0.0.1",
                                             smtpPort: 9, smtpSecurity: "starttls", smtpCredential: .file(smtp.passwordFile)))
        let (d, _) = try drafts.create(account: "offline", DraftInput(to: "bob@example.com", subject: "Later", body: "When online"))
        _ = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertThrowsError(try outbox.deliver(d.draftID)) { error in
            XCTAssertTrue("\(error)".contains("stays queued"), "\(error)")
        }
        let item = try XCTUnwrap(try views.outboxItem(draftID: d.draftID))
        XCTAssertEqual(item.state, .queued)
        XCTAssertGreaterThan(try XCTUnwrap(item.dueAt), Timestamp.now, "due again after a backoff")
        XCTAssertTrue(try outbox.reclaimAbandoned(account: "offline").isEmpty, "a message waiting for the network is not abandoned")
    }

    /// Runs `mailstore send DRAFT --undo-delay DELAY` in a child process and kills it (SIGKILL) `after` seconds
    /// once the draft's outbox state is `state` (the test's store and views must be closed).
    private func killSend(_ draftID: String, undoDelay: String, env extra: [String: String] = [:], once state: OutboxItem.State,
                          after seconds: Double = 0) throws {
        let p = try startMailstore(["send", draftID, "--undo-delay", undoDelay], env: extra)
        let deadline = Date().addingTimeInterval(30)
        var reached = false
        while !reached && Date() < deadline {
            usleep(50_000)
            let s = try MailStore.open(at: dir.file("store"), readOnly: true)
            reached = try s.openViews().outboxItem(draftID: draftID)?.state == state
        }
        XCTAssertTrue(reached, "never \(state)")
        usleep(UInt32(seconds * 1e6))
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
    }

    func testAKillDuringTheDelayBringsTheDraftBack() throws {
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Killed", body: "Never sent"))
        let before = try sentByThisTest()
        views = nil
        store = nil
        let grace = ["MAILSTORE_OUTBOX_GRACE": "0.2"]
        // Queued, then killed during the delay.
        try killSend(d.draftID, undoDelay: "1s", env: grace, once: .queued)
        usleep(1_500_000)
        // Reading appends nothing: the draft list still shows it queued until a write path runs.
        let listed = try mailstore(["draft", "list", "--account", accountName], env: grace)
        XCTAssertFalse(listed.stderr.contains("is back"), listed.stderr)
        XCTAssertTrue(listed.stdout.contains("queued"), listed.stdout)
        let r = try mailstore(["outbox", "send", "--account", accountName], env: grace)
        XCTAssertTrue(r.stderr.contains("is back"), r.stderr)
        let list = try mailstore(["draft", "list", "--account", accountName], env: grace)
        XCTAssertTrue(list.stdout.contains(d.draftID) && list.stdout.contains("draft"), list.stdout)
        XCTAssertEqual(try sentByThisTest(), before, "nothing was sent")
    }

    /// A `send` killed (SIGKILL) during a minute's undo delay, and one killed while it waits for the send lock (held
    /// here): their claims ended with them, so the next write path takes each message back at once, not 15 s past its
    /// due time (the first had stayed queued for 75 s, the second for 15), and removes the claim files.
    func testAKilledSendersMessageIsBackAtTheNextWriteNotAfterItsDueTime() throws {
        let (delayed, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Killed in the delay", body: "Hi"))
        let (waiting, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Killed waiting", body: "Hi"))
        let claims = dir.file("store") + "/locks/queued"
        let lock = try AccountLock(store: store.directory, kind: "send", account: accountName, waitSeconds: 0)
        defer { lock.release() }
        views = nil
        store = nil
        for (draft, delay, after) in [(delayed.draftID, "60s", 0.0), (waiting.draftID, "0", 0.3)] {
            try killSend(draft, undoDelay: delay, once: .queued, after: after)
            XCTAssertEqual(ScratchFolder.entries(of: claims, most: 10)?.count, 1, "the killed sender left its claim file")
            let r = try mailstore(["outbox", "send", "--account", accountName])
            XCTAssertTrue(r.stderr.contains("draft \(draft) is back"), r.stderr)
        }
        let list = try mailstore(["draft", "list", "--account", accountName]).stdout
        XCTAssertFalse(list.contains("queued"), list)
        XCTAssertEqual(ScratchFolder.entries(of: claims, most: 10), [], "no claim file left")
    }

    /// A process killed while it sends (`SendStarted`, no outcome) must not leave the message `sending` for
    /// ever: whoever takes the account's send lock next records the attempt as interrupted (it may have reached
    /// the server), and it can be retried or cancelled.
    func testAProcessKilledWhileSendingLeavesAMessageThatCanBeRetriedOrCancelled() throws {
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "stall@example.com", subject: "Stalled", body: "Hello"))
        views = nil
        store = nil
        // Killed while the server holds back its answer to the message.
        try killSend(d.draftID, undoDelay: "0", once: .sending, after: 0.3)
        XCTAssertTrue(try mailstore(["outbox", "--account", accountName]).stdout.contains("sending"), "reading changes nothing")
        // The next send round finds it interrupted: failed, with why and a retry time; nothing sent again yet.
        try mailstore(["outbox", "send", "--account", accountName])
        let listing = try mailstore(["outbox", "--account", accountName]).stdout
        XCTAssertTrue(listing.contains("failed") && listing.contains("ended during attempt 1"), listing)
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        var failure: SendFailed?
        try store.log.scan(filter: ScanFilter(types: [.sendFailed], stream: .draft(d.draftID))) { ev in
            if case .sendFailed(let f) = try ev.decode() { failure = f }
            return true
        }
        XCTAssertEqual(failure?.permanent, false)
        XCTAssertGreaterThan(try XCTUnwrap(failure?.retryAt), Timestamp.now)
        // The user can take it back (it had been refused while `sending`).
        try mailstore(["outbox", "cancel", d.draftID])
        _ = try store.latestViews()
        XCTAssertEqual(try views.outboxItem(draftID: d.draftID)?.state, .draft)
    }

    func testAMessageLeftSendingIsSentByARetryAndNotWhileAnotherProcessSends() throws {
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Left sending", body: "Hello"))
        let queued = try outbox.queue(d.draftID, undoDelay: 0)
        // What a process killed mid-attempt leaves behind.
        try store.commit([NewEvent(event: .sendStarted(SendStarted(draftID: d.draftID, attempt: 1)), account: accountName,
                                   stream: .draft(d.draftID), actor: .system)])
        XCTAssertEqual(try views.outboxItem(draftID: d.draftID)?.state, .sending)
        // Another process sending this account's mail holds the lock: the round leaves the message alone.
        let other = try AccountLock(store: store.directory, kind: "send", account: accountName, waitSeconds: 0)
        XCTAssertTrue(try outbox.deliverDue(account: accountName).isEmpty)
        XCTAssertEqual(try views.outboxItem(draftID: d.draftID)?.state, .sending)
        other.release()
        // `outbox retry`: recorded as interrupted, then sent.
        XCTAssertEqual(try outbox.deliver(d.draftID), .sent)
        XCTAssertNotNil(try spooled(queued.messageID))
        var types: [EventType] = []
        try store.log.scan(filter: ScanFilter(stream: .draft(d.draftID))) { ev in
            types.append(ev.envelope.type)
            return true
        }
        XCTAssertEqual(types, [.draftSaved, .messageQueued, .sendStarted, .sendFailed, .sendStarted, .messageSent, .draftDeleted])
    }

    func testAutocompleteRanksPeopleWhoWroteFirst() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "a1", subject: "Hi", parent: nil, flags: [])], via: c)
        try sync()
        let found = try views.completeContacts(account: accountName, prefix: "ali")
        XCTAssertEqual(found.first?.address, "alice@example.com")
        XCTAssertEqual(found.first?.name, "Alice")
        XCTAssertEqual(try views.completeContacts(account: accountName, prefix: "Ali").first?.address, "alice@example.com")
        XCTAssertTrue(try views.completeContacts(account: accountName, prefix: "zzz").isEmpty)
    }

    func testALongEightBitLineAndDotLinesArriveIntact() throws {
        let long = String(repeating: "Ä lange Zeile ohne Umbruch, ", count: 60) + "Ende."
        let body = "Erste Zeile\n.\n.Punkt am Anfang\n..zwei Punkte\n\(long)\n"
        let (d, problems) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Überlänge", body: body))
        XCTAssertTrue(problems.isEmpty, "\(problems)")
        let queued = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(d.draftID), .sent)
        let (_, parsed) = try XCTUnwrap(try spooled(queued.messageID))
        XCTAssertEqual(parsed.subject, "Überlänge")
        XCTAssertEqual(parsed.textBody, body)
        let (_, bytes) = try XCTUnwrap(try smtp.spooledMessage(containing: queued.messageID))
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        XCTAssertTrue(lines.allSatisfy { $0.utf8.count <= 998 }, "a line over 998 bytes reached the server")
    }

    /// The account's display name (`account add --display-name`) is the From header's name, as an RFC 2047
    /// encoded word when it is not ASCII; without one, From is the address alone.
    func testTheAccountsDisplayNameIsInFromEncodedWhenNotASCII() throws {
        for (account, display) in [("ascii", "Bob Example"), ("unicode", "Jürgen Müller (Köln)")] {
            // Each a mailbox of its own: a second account of the test's mailbox is refused.
            let me = try imap.newUser(account).user
            try store.addAccount(AccountSettings(name: account, email: me, host: imap.host, port: imap.tlsPort, security: "tls",
                                                 credential: .file(passwordFile), caFile: bundle, smtpHost: smtp.host,
                                                 smtpPort: smtp.submissionPort, smtpSecurity: "starttls", smtpUsername: smtp.user,
                                                 smtpCredential: .file(smtp.passwordFile), displayName: display))
            XCTAssertEqual(try store.account(named: account)?.displayName, display)
            let (d, problems) = try drafts.create(account: account, DraftInput(to: "carol@example.com", subject: "From \(account)", body: "Hi\n"))
            XCTAssertTrue(problems.isEmpty, "\(problems)")
            let queued = try outbox.queue(d.draftID, undoDelay: 0)
            XCTAssertEqual(try outbox.deliver(d.draftID), .sent)
            let (_, parsed) = try XCTUnwrap(try spooled(queued.messageID))
            XCTAssertEqual(parsed.from.first?.name, display)
            XCTAssertEqual(parsed.from.first?.email, me)
            let (_, bytes) = try XCTUnwrap(try smtp.spooledMessage(containing: queued.messageID))
            let header = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
                .replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
            let from = try XCTUnwrap(header.components(separatedBy: "\r\n").first { $0.hasPrefix("From:") })
            if account == "ascii" {
                XCTAssertEqual(from, "From: Bob Example <\(me)>")
            } else {
                XCTAssertTrue(from.hasPrefix("From: =?utf-8?") || from.hasPrefix("From: =?UTF-8?"), from)
                XCTAssertTrue(from.unicodeScalars.allSatisfy(\.isASCII), "encoded: \(from)")
                XCTAssertTrue(from.hasSuffix("<\(me)>"), from)
            }
        }
        // The test account has none: the address alone.
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "carol@example.com", subject: "Plain", body: "Hi\n"))
        let queued = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(d.draftID), .sent)
        let (_, parsed) = try XCTUnwrap(try spooled(queued.messageID))
        XCTAssertNil(parsed.from.first?.name)
        XCTAssertEqual(parsed.from.first?.email, user)
    }

    /// A message to an address beyond ASCII goes out with SMTPUTF8 as composed, and is filed in Sent with its header
    /// in seven bits (RFC 6857's downgrade: the server has not enabled UTF8=ACCEPT): read back, Python's `email` finds
    /// the subject, the names and the addresses. Until 2026-12-07 the 8-bit copy was APPENDed, and Cyrus wrote an X for
    /// each byte beyond ASCII (`<jXXrg@bXXcher.example>`).
    func testAnAddressBeyondASCIIIsFiledInSentReadable() throws {
        let (d, problems) = try drafts.create(account: accountName, DraftInput(
            to: "Jörg Müller <jörg@bücher.example>, Bob <bob@example.com>", bcc: "zoë@example.com",
            subject: "Grüße aus Köln", body: "Hallo Jörg,\n"))
        XCTAssertTrue(problems.isEmpty, "\(problems)")
        let queued = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliverWhenDue(d.draftID), .sent)
        let (_, sent) = try XCTUnwrap(try smtp.spooledMessage(containing: queued.messageID))
        XCTAssertTrue(String(decoding: sent, as: UTF8.self).contains("<jörg@bücher.example>"), "the bytes sent are as composed")
        XCTAssertNil(try views.draft(id: d.draftID), "filed")
        let copy = try XCTUnwrap(try serverCopy(messageID: queued.messageID, in: "Sent"))
        let header = String(decoding: copy, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        XCTAssertTrue(header.unicodeScalars.allSatisfy(\.isASCII), header)
        let python = try PythonEmailOracle.read(copy)
        XCTAssertEqual(python.subject, "Grüße aus Köln")
        XCTAssertEqual(python.from.map { $0[1] }, [user])
        XCTAssertEqual(python.to, [["Bob", "bob@example.com"]])
        XCTAssertEqual(python.groups["to"], ["Jörg Müller <jörg@bücher.example>"])
        XCTAssertEqual(python.groups["bcc"], ["zoë@example.com"])
        XCTAssertEqual(python.text.replacingOccurrences(of: "\r\n", with: "\n"), "Hallo Jörg,\n")
        XCTAssertEqual(python.defects, [])
    }

    // The same through Exim, and filed in Courier-IMAP's and Cyrus IMAP's Sent folders.

    func testASentMessageArrivesCorrectLandsInSentAndTheDraftIsGoneOnExim() throws {
        try testASentMessageArrivesCorrectLandsInSentAndTheDraftIsGone()
    }
    func testASentMessageArrivesCorrectLandsInSentAndTheDraftIsGoneOnCourier() throws {
        try testASentMessageArrivesCorrectLandsInSentAndTheDraftIsGone()
    }
    func testASentMessageArrivesCorrectLandsInSentAndTheDraftIsGoneOnCyrus() throws {
        try testASentMessageArrivesCorrectLandsInSentAndTheDraftIsGone()
    }
    func testALongEightBitLineAndDotLinesArriveIntactOnExim() throws { try testALongEightBitLineAndDotLinesArriveIntact() }
    func testAReplyHasItsSubjectThreadingAndQuoteOnExim() throws { try testAReplyHasItsSubjectThreadingAndQuote() }
    func testUndoWithinTheDelaySendsNothingOnExim() throws { try testUndoWithinTheDelaySendsNothing() }
    func testA5xxFailsWithTheReasonAnd4xxAndDropsAreRetriedOnExim() throws { try testA5xxFailsWithTheReasonAnd4xxAndDropsAreRetried() }
    func testAnAddressBeyondASCIIIsFiledInSentReadableOnCyrus() throws { try testAnAddressBeyondASCIIIsFiledInSentReadable() }
    func testWithNoNetworkTheMessageStaysQueuedAndTheUserIsToldOnCourier() throws {
        try testWithNoNetworkTheMessageStaysQueuedAndTheUserIsTold()
    }
}
