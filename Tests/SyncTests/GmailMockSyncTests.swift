import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import Projections
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

    /// An archive written back takes the message out of INBOX into All Mail (not synced): the next syncs keep it listed
    /// in All Mail (not expunged with its INBOX copy), searchable, and its undo moves it back to INBOX, listed once.
    func testAThreadArchivedHereStaysInAllMailAcrossSyncsAndItsUndoWorks() throws {
        let g = try startGmail([Self.inbox(4, "Archive me from mailstore"), Self.inbox(10, "Stays in the inbox")])
        try sync()
        let before = try XCTUnwrap(try email("m4"))
        let action = try actions.archiveThreads(ids: [before.thread])
        _ = try store.pushActions(for: action.description)
        let c = try otherClient()
        defer { c.logout() }
        XCTAssertEqual(try uids("INBOX", "m4", via: c), [])
        XCTAssertEqual(try uids("[Gmail]/All Mail", "m4", via: c).count, 1)
        for _ in 0..<2 {
            let report = try sync()
            XCTAssertEqual(report.folders.reduce(0) { $0 + $1.expunged }, 0, "\(report.folders)")
            XCTAssertEqual(try XCTUnwrap(try email("m4")).folder, "[Gmail]/All Mail")
            XCTAssertEqual(try listed("[Gmail]/All Mail"), ["Archive me from mailstore"])
            XCTAssertEqual(try store.search("archive", output: .messages).count, 1)
        }
        XCTAssertEqual(try listed("INBOX"), ["Stays in the inbox"])
        _ = try actions.undo(actionId: action.description)
        XCTAssertEqual(try sync().actions.applied, 1, "the undo written back, then INBOX synced")
        XCTAssertTrue(try XCTUnwrap(try g.labels(of: 1004)).contains("\\Inbox"))
        XCTAssertEqual(Set(try listed("INBOX")), ["Archive me from mailstore", "Stays in the inbox"])
        XCTAssertEqual(try views.copies(account: accountName, messageID: "m4@example.org").count, 1, "listed once")
        XCTAssertEqual(try XCTUnwrap(try email("m4")).folder, "INBOX")
    }

    /// Mail another client archived (out of INBOX) or unlabelled (out of a label) is still in All Mail: recorded there,
    /// listed and found, not expunged; a message archived but still under another label stays listed under it.
    func testMailArchivedOrUnlabelledElsewhereIsKeptInAllMail() throws {
        try startGmail([Self.inbox(5, "Archived elsewhere, still in Work", labels: ["\\Inbox", "Work"]),
                        Self.inbox(6, "Archived elsewhere, no label"), Self.inbox(9, "Only Travel, label removed", labels: ["Travel"])])
        try sync()
        let c = try otherClient()
        defer { c.logout() }
        for id in ["m5", "m6"] { _ = try c.uidMove(UIDSet(try uids("INBOX", id, via: c)), to: MailboxName("[Gmail]/All Mail")) }
        let travel = UIDSet(try uids("Travel", "m9", via: c))
        _ = try c.uidStore(travel, .add, flags: ["\\Deleted"])
        try c.uidExpunge(travel)
        let report = try sync()
        let inbox = try XCTUnwrap(report.folders.first { $0.folder == "INBOX" })
        XCTAssertEqual([inbox.keptInAllMail, inbox.expunged], [1, 1], "m6 kept, m5's INBOX copy expunged (still in Work)")
        XCTAssertEqual(report.folders.first { $0.folder == "Travel" }?.keptInAllMail, 1)
        XCTAssertEqual(try XCTUnwrap(try email("m6")).folder, "[Gmail]/All Mail")
        XCTAssertEqual(try XCTUnwrap(try email("m9")).folder, "[Gmail]/All Mail")
        XCTAssertEqual(try views.copies(account: accountName, messageID: "m5@example.org").map(\.folder), ["Work"])
        XCTAssertEqual(Set(try listed("[Gmail]/All Mail")), ["Archived elsewhere, no label", "Only Travel, label removed"])
        XCTAssertEqual(try store.search("elsewhere", output: .messages).count, 2)
        XCTAssertEqual(try store.search("travel", output: .messages).count, 1)
        try sync()
        XCTAssertEqual(try XCTUnwrap(try email("m6")).folder, "[Gmail]/All Mail", "kept across syncs")
        // Deleted for good on Gmail since (to Trash, then expunged there): the kept copy is expunged by the next sync.
        _ = try c.uidMove(UIDSet(try uids("[Gmail]/All Mail", "m9", via: c)), to: MailboxName("[Gmail]/Trash"))
        let trashed = UIDSet(try uids("[Gmail]/Trash", "m9", via: c))
        _ = try c.uidStore(trashed, .add, flags: ["\\Deleted"])
        try c.uidExpunge(trashed)
        XCTAssertEqual(try sync().folders.filter { $0.folder == "[Gmail]/All Mail" }.reduce(0) { $0 + $1.expunged }, 1)
        XCTAssertNil(try email("m9"))
        XCTAssertEqual(try XCTUnwrap(try email("m6")).folder, "[Gmail]/All Mail")
    }

    /// A message in INBOX and under two labels (three folders, a copy each with a UID of its own) is fetched whole once:
    /// the other copies are found stored by X-GM-MSGID and recorded from its blob, and `show --raw` of each gives the
    /// server's bytes. A label added later (by another client) to a message stored is recorded without a fetch too.
    func testAMessageUnderSeveralLabelsIsFetchedOnce() throws {
        let g = try startGmail([Self.inbox(15, "In three folders", labels: ["\\Inbox", "Work", "Travel"]),
                                GmailMockServer.Message(gmailID: 1016, messageID: "m16@example.org", subject: "Only in Work",
                                                        labels: ["Work"], flags: ["\\Flagged"])])
        // Batches of one message: the lookup's batches are those of the fetch (`--batch-messages`).
        try sync(batch: 1)
        XCTAssertEqual(try g.bodyFetches(), [1015: 1, 1016: 1])
        let raw = { (id: Int) in try XCTUnwrap(try g.raw(of: id)) }
        let copies = try views.copies(account: accountName, messageID: "m15@example.org")
        XCTAssertEqual(Set(copies.map(\.folder)), ["INBOX", "Work", "Travel"])
        XCTAssertEqual(Set(copies.map(\.emailID)).count, 3)
        for copy in copies {
            let received = try XCTUnwrap(try store.email(id: copy.emailID))
            XCTAssertEqual(try store.blob(received.payload.blob), try raw(1015), copy.folder)
            XCTAssertEqual(received.payload.gmailMessageID, 1015)
            XCTAssertEqual(received.payload.flags, ["\\Seen"])
        }
        XCTAssertEqual(try listed("Travel"), ["In three folders"])
        let c = try otherClient()
        defer { c.logout() }
        _ = try c.uidCopy(UIDSet(try uids("Work", "m16", via: c)), to: MailboxName("Projects"))
        try sync()
        XCTAssertEqual(try g.bodyFetches(), [1015: 1, 1016: 1], "the copy under Projects read from the store")
        let m16 = try views.copies(account: accountName, messageID: "m16@example.org")
        XCTAssertEqual(Set(m16.map(\.folder)), ["Work", "Projects", "[Gmail]/Starred"])
        for copy in m16 {
            let received = try XCTUnwrap(try store.email(id: copy.emailID))
            XCTAssertEqual(try store.blob(received.payload.blob), try raw(1016), copy.folder)
            XCTAssertEqual(received.payload.flags, ["\\Flagged"], "the server's flags of the copy")
        }
        XCTAssertEqual(try listed("Projects"), ["Only in Work"])
    }

    /// The lookup of stored copies goes a slice of 8 fetch batches at a time (``SyncEngine/storedCopySlice``), so what
    /// it holds is bounded by the slice, not the folder: 20 messages in INBOX and Work, batches of one message (slices
    /// of 8), each fetched whole once and each copy recorded with its own message's bytes across the slices' edges.
    func testStoredCopiesAreLookedUpASliceAtATimeAndEachMessageIsFetchedOnce() throws {
        let messages = (30..<50).map { Self.inbox($0, "Sliced \($0)", labels: ["\\Inbox", "Work"]) }
        let g = try startGmail(messages)
        try sync(batch: 1)
        XCTAssertEqual(try g.bodyFetches(), Dictionary(uniqueKeysWithValues: (30..<50).map { (1000 + $0, 1) }))
        for n in 30..<50 {
            let copies = try views.copies(account: accountName, messageID: "m\(n)@example.org")
            XCTAssertEqual(Set(copies.map(\.folder)), ["INBOX", "Work"], "m\(n)")
            for copy in copies {
                let received = try XCTUnwrap(try store.email(id: copy.emailID))
                XCTAssertEqual(try store.blob(received.payload.blob), try g.raw(of: 1000 + n), "m\(n) in \(copy.folder)")
            }
        }
        XCTAssertEqual(try listed("Work").count, 20)
    }

    /// A message under two labels (a folder each, a copy in each) counts once in the contacts view, and so does one
    /// recorded again in All Mail when its label is removed elsewhere: each copy had counted, the sender of labelled
    /// mail ranked above people who wrote as often.
    func testAMessageUnderTwoLabelsOrKeptInAllMailCountsOnceInContacts() throws {
        try startGmail([Self.inbox(11, "Under two labels", labels: ["\\Inbox", "Work"]),
                        Self.inbox(12, "Only Travel", labels: ["Travel"])])
        try sync()
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "Work"), 1)
        let alice = { try self.store.contacts(account: self.accountName).first { $0.address == "alice@example.org" }?.count }
        XCTAssertEqual(try alice(), 2, "two messages, three copies")
        let c = try otherClient()
        defer { c.logout() }
        let travel = UIDSet(try uids("Travel", "m12", via: c))
        _ = try c.uidStore(travel, .add, flags: ["\\Deleted"])
        try c.uidExpunge(travel)
        XCTAssertEqual(try sync().folders.first { $0.folder == "Travel" }?.keptInAllMail, 1)
        XCTAssertEqual(try alice(), 2, "the copy kept in All Mail counts for nothing more")
    }

    /// A starred or Important message archived elsewhere leaves INBOX and stays in `[Gmail]/Starred` or
    /// `[Gmail]/Important`, which are synced: its INBOX copy is expunged (another synced copy holds it, so it is not
    /// kept in All Mail), and the views still list its thread once, there, with the unread counts right.
    func testAStarredOrImportantMessageArchivedElsewhereStaysListedOnceWithItsUnreadCount() throws {
        try startGmail([GmailMockServer.Message(gmailID: 1013, messageID: "m13@example.org", subject: "Starred and unread",
                                                labels: ["\\Inbox"], flags: ["\\Flagged"]),
                        GmailMockServer.Message(gmailID: 1014, messageID: "m14@example.org", subject: "Important and unread",
                                                labels: ["\\Inbox", "\\Important"])])
        try sync()
        let unread = { (folder: FolderPart) in
            try self.views.unreadCount(account: self.accountName, folder: folder, category: "all")
        }
        XCTAssertEqual(try unread(.path("INBOX")), 2)
        XCTAssertEqual(try unread(.wholeAccount), 2)
        let c = try otherClient()
        defer { c.logout() }
        for id in ["m13", "m14"] { _ = try c.uidMove(UIDSet(try uids("INBOX", id, via: c)), to: MailboxName("[Gmail]/All Mail")) }
        let report = try sync()
        let inbox = try XCTUnwrap(report.folders.first { $0.folder == "INBOX" })
        XCTAssertEqual([inbox.keptInAllMail, inbox.expunged], [0, 2], "\(report.folders)")
        XCTAssertEqual(try listed("INBOX"), [])
        XCTAssertEqual(try listed("[Gmail]/Starred"), ["Starred and unread"])
        XCTAssertEqual(try listed("[Gmail]/Important"), ["Important and unread"])
        XCTAssertEqual(try views.copies(account: accountName, messageID: "m13@example.org").map(\.folder), ["[Gmail]/Starred"])
        XCTAssertEqual(try views.copies(account: accountName, messageID: "m14@example.org").map(\.folder), ["[Gmail]/Important"])
        XCTAssertEqual(try unread(.path("INBOX")), 0)
        XCTAssertEqual(try unread(.path("[Gmail]/Starred")), 1)
        XCTAssertEqual(try unread(.path("[Gmail]/Important")), 1)
        XCTAssertEqual(try unread(.wholeAccount), 2, "each unread message once")
        XCTAssertEqual(try store.search("unread", output: .messages).count, 2)
        // Unstarred elsewhere later: it leaves Starred, and is kept in All Mail (no other synced copy now).
        _ = try c.uidStore(UIDSet(try uids("[Gmail]/All Mail", "m13", via: c)), .remove, flags: ["\\Flagged"])
        XCTAssertEqual(try sync().folders.first { $0.folder == "[Gmail]/Starred" }?.keptInAllMail, 1)
        XCTAssertEqual(try views.copies(account: accountName, messageID: "m13@example.org").map(\.folder), ["[Gmail]/All Mail"])
        XCTAssertEqual(try listed("[Gmail]/All Mail"), ["Starred and unread"])
        XCTAssertEqual(try unread(.wholeAccount), 2)
    }

    /// A draft's older versions (and the copy of a deleted draft) are moved to Trash: an expunge from Gmail's Drafts
    /// removes the \Draft label only, which had left a copy without any label in All Mail for every version saved.
    func testADraftsOldVersionsGoToTrashNotToAllMailWithoutALabel() throws {
        let g = try startGmail([Self.inbox(1, "Hello")])
        try sync()
        let drafts = DraftsUseCase(store: store)
        let (d, _) = try drafts.create(account: accountName, DraftInput(to: "Bob <bob@example.org>", subject: "Draft v1", body: "one"))
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.stored, 1)
        _ = try drafts.edit(d.draftID, DraftInput(subject: "Draft v2", body: "two"))
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.removed, 1)
        try drafts.delete(d.draftID)
        XCTAssertEqual(try store.pushDrafts(account: accountName)?.removed, 1)
        let versions = try g.messages().values.filter { $0.messageID != "m1@example.org" }
        XCTAssertEqual(versions.count, 2, "both versions, in Trash until Gmail empties it")
        for v in versions { XCTAssertEqual(v.labels, ["\\Trash"], "no version left in All Mail without a label") }
    }

    /// An undo of a move into a label the message already had puts it back in INBOX and keeps that label: the move back
    /// had been a UID MOVE out of the label, which Gmail takes as removing it (the message ended with \Inbox alone).
    func testAnUndoOfAMoveIntoALabelTheMessageHadKeepsTheLabel() throws {
        let g = try startGmail([Self.inbox(5, "In Inbox and Work", labels: ["\\Inbox", "Work"])])
        try sync()
        let inbox = try XCTUnwrap(try views.copies(account: accountName, messageID: "m5@example.org").first { $0.folder == "INBOX" })
        let thread = try XCTUnwrap(try views.emailRecord(id: inbox.emailID)).threadID
        let action = try actions.moveThread(id: thread, toFolderId: "Work")
        _ = try store.pushActions(for: action.description)
        XCTAssertEqual(Set(try XCTUnwrap(try g.labels(of: 1005))), ["Work"])
        _ = try actions.undo(actionId: action.description)
        XCTAssertEqual(try sync().actions.applied, 1)
        XCTAssertEqual(Set(try XCTUnwrap(try g.labels(of: 1005))), ["\\Inbox", "Work"], "back in INBOX, still labelled Work")
    }
}
