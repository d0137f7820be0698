import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailParser
import MailStore
import Projections
import TestSupport
import XCTest

/// Server drafts against the real Dovecot (and aiosmtpd for sending): each saved version is one copy with
/// `\Draft` in Drafts, replacing the last; sending leaves Drafts empty and the message in Sent; no Drafts
/// folder keeps the draft local with a warning; a refused APPEND is retried.
final class ServerDraftsTests: SyncTestCase {
    var smtp: SMTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        smtp = try TestServers.smtp(SMTPPersonality(testName: name))
        try addAccount(smtp: smtp)
    }

    private var drafts: DraftsUseCase { DraftsUseCase(store: store) }

    /// The messages of a server folder: UID -> (flags without \Recent, parsed message).
    private func messages(_ folder: String, via c: IMAPConnection) throws -> [UInt32: (flags: Set<String>, message: ParsedMessage)] {
        let sel = try c.select(MailboxName(path(folder)), readOnly: true)
        var out: [UInt32: (Set<String>, ParsedMessage)] = [:]
        guard sel.exists > 0 else { return [:] }
        try c.uidFetch(.all, [.uid, .flags, .body(.entire)]) { m in
            guard let uid = m.uid, let body = m.body else { return }
            out[uid] = (Set((m.flags ?? []).filter { $0.lowercased() != "\\recent" }), MailParser.parse(body))
        }
        return out.mapValues { (flags: $0.0, message: $0.1) }
    }

    private func copyEvents(_ draftID: String) throws -> [DraftCopyChanged] {
        var out: [DraftCopyChanged] = []
        try store.log.scan(filter: ScanFilter(types: [.draftCopyChanged], stream: .draft(draftID))) { ev in
            if case .draftCopyChanged(let p) = try ev.decode() { out.append(p) }
            return true
        }
        return out
    }

    func testADraftIsOneCopyInDraftsReplacedOnEachEditAndGoneOnceSent() throws {
        try sync()
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "Bob <bob@example.com>", subject: "Plan v1", body: "First"))
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.stored, 1)
        for version in 2...3 {
            _ = try drafts.edit(d.draftID, DraftInput(subject: "Plan v\(version)", body: "Take \(version)"))
            let report = try XCTUnwrap(try store.pushDrafts(account: accountName))
            XCTAssertEqual(report.stored, 1)
            XCTAssertEqual(report.removed, 1, "the copy before it is deleted")
        }
        let c = try server()
        defer { c.logout() }
        let onServer = try messages("Drafts", via: c)
        XCTAssertEqual(onServer.count, 1, "exactly one copy: \(onServer.values.map(\.message.subject))")
        let copy = try XCTUnwrap(onServer.values.first)
        XCTAssertEqual(copy.message.subject, "Plan v3")
        XCTAssertTrue(copy.flags.isSuperset(of: ["\\Draft", "\\Seen"]), "\(copy.flags)")
        XCTAssertEqual(copy.message.to.map(\.email), ["bob@example.com"])
        let state = try XCTUnwrap(try store.draftServerState(account: accountName, draftID: d.draftID))
        XCTAssertEqual(state.copies.map(\.uid), Array(onServer.keys), "the UID learned from APPENDUID")
        XCTAssertEqual(state.copies.map(\.version), [3])
        XCTAssertEqual(try copyEvents(d.draftID).map(\.change), [.appending, .stored, .appending, .stored, .removed, .appending, .stored, .removed])

        // Sync brings the copy back: no second draft or thread, and the Drafts badge counts it once.
        try sync()
        XCTAssertEqual(try views.syncedCopies(account: accountName, folder: path("Drafts")).count, 1)
        XCTAssertEqual(try threads("Drafts"), [], "our own copy is no thread of its own")
        XCTAssertEqual(try store.search("subject:plan", output: .messages), [], "nor a search result")
        let badge = try FetchThreadsUseCase(views: views).fetchFolders(accountId: accountName).first { $0.role == .drafts }?.badge
        XCTAssertEqual(badge, 1)
        // A draft written elsewhere counts too.
        _ = try c.append(to: MailboxName(path("Drafts")), message: SyncTestCase.message("elsewhere", subject: "Other device"),
                         flags: ["\\Draft", "\\Seen"])
        try sync()
        XCTAssertEqual(try FetchThreadsUseCase(views: views).fetchFolders(accountId: accountName).first { $0.role == .drafts }?.badge, 2)

        // Sent: the copy goes from Drafts, the message is in Sent.
        let outbox = OutboxUseCase(store: store)
        let queued = try outbox.queue(d.draftID, undoDelay: 0)
        XCTAssertEqual(try outbox.deliver(d.draftID), .sent)
        try sync()
        let left = try messages("Drafts", via: c)
        XCTAssertEqual(left.values.map(\.message.subject), ["Other device"], "our copy is gone from Drafts")
        XCTAssertEqual(try messages("Sent", via: c).values.filter { $0.message.messageID == queued.messageID }.count, 1)
        XCTAssertNil(try store.draftServerState(account: accountName, draftID: d.draftID), "nothing left to delete")
        XCTAssertEqual(try FetchThreadsUseCase(views: views).fetchFolders(accountId: accountName).first { $0.role == .drafts }?.badge, 1)
    }

    /// A message in the outbox is no draft for other clients: a write-back during its undo delay does not APPEND it to
    /// Drafts (it had; another device then showed a message being sent as a draft); taken back, it is stored.
    func testAQueuedMessageIsNotStoredInDraftsUntilItIsTakenBack() throws {
        try sync()
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "Bob <bob@example.com>", subject: "Queued", body: "Soon"))
        let outbox = OutboxUseCase(store: store)
        _ = try outbox.queue(d.draftID, undoDelay: 600)
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.stored, 0)
        try sync()
        let c = try server()
        defer { c.logout() }
        XCTAssertEqual(try messages("Drafts", via: c).count, 0, "nothing in Drafts while it waits to be sent")
        try outbox.undo(d.draftID)
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.stored, 1, "a draft again, it is stored")
        XCTAssertEqual(try messages("Drafts", via: c).values.map(\.message.subject), ["Queued"])
    }

    func testADiscardedDraftsCopyIsDeletedAndARestartFindsTheCopyToReplace() throws {
        try sync()
        let (d, _) = try drafts.create(account: accountName, DraftInput(subject: "No recipient yet", body: ""))
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.stored, 1, "an unfinished draft is stored too")
        // A new process (a new store handle) knows the copy from the log.
        store = nil
        views = nil
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        _ = try drafts.edit(d.draftID, DraftInput(subject: "Now with a subject"))
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.removed, 1)
        let c = try server()
        defer { c.logout() }
        XCTAssertEqual(try messages("Drafts", via: c).values.map(\.message.subject), ["Now with a subject"])
        try drafts.delete(d.draftID)
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.removed, 1)
        XCTAssertTrue(try messages("Drafts", via: c).isEmpty)
    }

    func testACopyAppendedJustBeforeACrashIsFoundNotAppendedAgain() throws {
        try sync()
        // The process ends right after the APPEND, before `stored` is recorded.
        let r = try mailstore(["draft", "new", "--account", accountName, "--to", "bob@example.com", "--subject", "Crash", "--body", "b", "--push"],
                              env: ["MAILSTORE_FAILPOINT": "after-draft-append"], expect: 86)
        XCTAssertTrue(r.stdout.isEmpty, r.stdout)
        let id = try XCTUnwrap(try store.latestViews().drafts(account: accountName).first?.latest.draftID)
        XCTAssertEqual(try copyEvents(id).map(\.change), [.appending])
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.stored, 1)
        let c = try server()
        defer { c.logout() }
        let onServer = try messages("Drafts", via: c)
        XCTAssertEqual(onServer.values.map(\.message.subject), ["Crash"], "one copy: found by its Message-ID, not APPENDed twice")
        XCTAssertEqual(try store.draftServerState(account: accountName, draftID: id)?.copies.map(\.uid), Array(onServer.keys))
    }

    func testWithoutADraftsFolderTheDraftStaysLocalWithAWarning() throws {
        try imap.readOnly(user: user, folder: path("Drafts"), rights: "r")  // no "l": not even listed
        try sync()
        XCTAssertFalse(try views.folders(account: accountName).contains { $0.role == .drafts })
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Local", body: "Only here"))
        let report = try XCTUnwrap(try store.pushDrafts(account: accountName))
        XCTAssertEqual(report.stored, 0)
        XCTAssertEqual(report.problems.map(\.localOnly), [true])
        XCTAssertTrue(report.problems[0].reason.contains("no Drafts folder"), report.problems[0].reason)
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.problems.count, 1, "still warned")
        XCTAssertEqual(try copyEvents(d.draftID).map(\.change), [.localOnly], "recorded once")
        XCTAssertEqual(try store.draftServerState(account: accountName, draftID: d.draftID)?.localOnlyVersion, 1)
        XCTAssertEqual(try store.draft(id: d.draftID)?.latest.subject, "Local")
        // The CLI says so.
        let r = try mailstore(["draft", "new", "--account", accountName, "--to", "bob@example.com", "--subject", "CLI", "--body", "b", "--push"])
        XCTAssertTrue(r.stderr.contains("no Drafts folder"), r.stderr)
        let id = try XCTUnwrap(r.stdout.split(separator: "\n").last.map(String.init))
        XCTAssertTrue(try mailstore(["draft", "show", id]).stdout.contains("local only"))
    }

    func testARefusedAppendIsRetriedWithBackoff() throws {
        try sync()
        try imap.readOnly(user: user, folder: path("Drafts"), rights: "lr")  // APPEND refused
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "bob@example.com", subject: "Retry me", body: "x"))
        let report = try XCTUnwrap(try store.pushDrafts(account: accountName))
        XCTAssertEqual(report.problems.map(\.retrying), [true])
        let failed = try XCTUnwrap(try store.draftServerState(account: accountName, draftID: d.draftID))
        XCTAssertEqual(failed.attempts, 1)
        XCTAssertNotNil(failed.retryAt)
        // A sync before the retry time does not try again.
        XCTAssertEqual(try sync().actions.drafts, DraftSyncReport())
        try imap.readWrite(user: user, folder: path("Drafts"))
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.stored, 1, "pushing now tries again")
        let c = try server()
        defer { c.logout() }
        XCTAssertEqual(try messages("Drafts", via: c).values.map(\.message.subject), ["Retry me"])
        XCTAssertEqual(try store.draftServerState(account: accountName, draftID: d.draftID)?.attempts, 0)
    }

    /// A draft to an address beyond ASCII is stored in Drafts with its header in seven bits (RFC 6857's downgrade: the
    /// server has not enabled UTF8=ACCEPT); read back, Python's `email` finds the subject, names and addresses, and a
    /// sync knows the copy as the draft's own. Until 2026-12-07 Cyrus wrote an X for each byte beyond ASCII.
    func testADraftToAnAddressBeyondASCIIIsStoredReadable() throws {
        try sync()
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "Zoë Ärger <zoë@bücher.example>", cc: "carol@example.com",
                                                                        subject: "Entwurf für Zoë", body: "Grüße\n"))
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.stored, 1)
        let state = try XCTUnwrap(try store.draftServerState(account: accountName, draftID: d.draftID))
        let messageID = try XCTUnwrap(state.copies.first?.messageID)
        let copy = try XCTUnwrap(try serverCopy(messageID: messageID, in: "Drafts"))
        let header = String(decoding: copy, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        XCTAssertTrue(header.unicodeScalars.allSatisfy(\.isASCII), header)
        let python = try PythonEmailOracle.read(copy)
        XCTAssertEqual(python.subject, "Entwurf für Zoë")
        XCTAssertEqual(python.groups["to"], ["Zoë Ärger <zoë@bücher.example>"])
        XCTAssertEqual(python.cc, [["", "carol@example.com"]])
        XCTAssertEqual(python.defects, [])
        try sync()
        XCTAssertEqual(try threads("Drafts"), [], "our own copy is no thread of its own")
        XCTAssertEqual(try store.draft(id: d.draftID)?.latest.to.map(\.email), ["zoë@bücher.example"], "the draft keeps the address")
    }

    func testADraftToAnAddressBeyondASCIIIsStoredReadableOnCyrus() throws { try testADraftToAnAddressBeyondASCIIIsStoredReadable() }
}
