import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
@testable import MailStore
import Projections
import TestSupport
import XCTest

/// Thread actions against the real Dovecot (and, the `...OnCourier`, `...OnCyrus` tests, Courier-IMAP and
/// Cyrus IMAP): optimistic in the views, written back by sync, refusals compensated, undo, retry.
final class ActionTests: SyncTestCase {
    private var actions: ManageThreadActionsUseCase { ManageThreadActionsUseCase(store: store) }

    /// Fills INBOX with `n` one-message threads (and Locked with `locked` more) and syncs.
    private func prepare(_ n: Int = 5, locked: Int = 0, via c: IMAPConnection) throws {
        try fill("INBOX", (0..<n).map { (id: "m\($0)", subject: "Thread \($0)", parent: nil, flags: [String]()) }, via: c)
        if locked > 0 { try fill("Locked", (0..<locked).map { (id: "l\($0)", subject: "Locked \($0)", parent: nil, flags: [String]()) }, via: c) }
        try fill("Projects", [(id: "p0", subject: "Project", parent: nil, flags: [String]())], via: c)
        try addAccount()
        try sync()
    }

    /// The thread holding the message with Message-ID `id@example.com`.
    private func thread(_ id: String) throws -> String {
        let copy = try XCTUnwrap(try views.copies(account: accountName, messageID: "\(id)@example.com").first)
        return try XCTUnwrap(try views.emailRecord(id: copy.emailID)).threadID
    }

    private func folderOf(_ id: String, via c: IMAPConnection) throws -> [String] {
        var out: [String] = []
        for f in ["INBOX", "Archive", "Trash", "Projects", "Locked"].map(path) {
            guard try c.list().contains(where: { $0.mailbox.name == f || ($0.mailbox.isInbox && f == "INBOX") }) else { continue }
            _ = try c.select(MailboxName(f), readOnly: true)
            if try !c.uidSearch([.header("Message-ID", "\(id)@example.com")]).isEmpty { out.append(f) }
        }
        return out
    }

    private func serverFlags(of id: String, in folder: String = "INBOX", via c: IMAPConnection) throws -> Set<String> {
        _ = try c.select(MailboxName(path(folder)), readOnly: true)
        guard let uid = try c.uidSearch([.header("Message-ID", "\(id)@example.com")]).first else { return [] }
        var flags: Set<String> = []
        try c.uidFetch(UIDSet(uid), [.uid, .flags]) { m in flags = Set(m.flags ?? []) }
        return flags
    }

    private func assertRebuildAgrees(file: StaticString = #filePath, line: UInt = #line) throws {
        let report = try views.compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "verify --views: \(report.differences)", file: file, line: line)
    }

    /// A sync of the folder an archived thread left (a watch syncs only the Inbox on a change) records the Archive's
    /// new copy first: the thread had shown in no folder, no search and no undo until the Archive's own sync, and an
    /// undo then did nothing, exit 0.
    func testASyncOfTheFolderMovedMailLeftRecordsItsNewCopyFirst() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(3, via: c)
        let t0 = try thread("m0")
        let id = try actions.archiveThread(id: t0)
        guard let account = try views.account(named: accountName)?.settings else { throw SyncError.noAccount(accountName) }
        let report = try SyncEngine(store: store, account: account, options: SyncOptions(folders: ["INBOX"])).run()
        XCTAssertEqual(report.actions.applied, 1)
        XCTAssertEqual(try folderOf("m0", via: c), [path("Archive")])
        XCTAssertEqual(report.folders.map(\.folder), [path("Archive"), "INBOX"], "the destination first, then the folder it left")
        XCTAssertTrue(try threads("Archive").contains(["m0@example.com"]), "the archived thread shows in the Archive")
        XCTAssertFalse(try threads("INBOX").contains(["m0@example.com"]))
        let copies = try views.copies(account: accountName, messageID: "m0@example.com")
        XCTAssertEqual(copies.count, 1, "one copy: the Archive's")
        try assertRebuildAgrees()
        // An undo moves it back; a sync of the Inbox alone (which writes the move back, then finds the new copy there)
        // lists it once: the copy the undo moved back is replaced by the new one in one commit (it had been listed
        // twice until the Archive's own sync).
        _ = try actions.undo(actionId: id.description)
        XCTAssertTrue(try threads("INBOX").contains(["m0@example.com"]))
        let back = try SyncEngine(store: store, account: account, options: SyncOptions(folders: ["INBOX"])).run()
        XCTAssertEqual(back.actions.applied, 1)
        XCTAssertEqual(try folderOf("m0", via: c), ["INBOX"])
        XCTAssertEqual(try views.copies(account: accountName, messageID: "m0@example.com").count, 1, "listed once")
        XCTAssertTrue(try threads("INBOX").contains(["m0@example.com"]))
        try assertRebuildAgrees()
        try sync()
        XCTAssertEqual(try views.copies(account: accountName, messageID: "m0@example.com").count, 1)
        try assertViewsMatchServer()
        try assertRebuildAgrees()
    }

    /// An undo of an archive whose mail another client deleted from the Archive since: nothing to move back, said so
    /// (exit 7); it had recorded "undone, inverse queued" with no inverse, exit 0.
    func testAnUndoOfMailDeletedSinceSaysNothingWasUndone() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let id = try actions.archiveThread(id: try thread("m0"))
        try sync()
        _ = try c.select(MailboxName(path("Archive")), readOnly: false)
        let uid = try XCTUnwrap(try c.uidSearch([.header("Message-ID", "m0@example.com")]).first)
        _ = try c.uidStore(UIDSet(uid), .add, flags: ["\\Deleted"])
        try c.expunge()
        try sync()
        XCTAssertThrowsError(try actions.undo(actionId: id.description)) { error in
            XCTAssertTrue("\(error)".contains("nothing was undone"), "\(error)")
        }
        XCTAssertEqual(try views.action(id: id.description)?.undone, false)
    }

    /// `history --thread` through real syncs: an archived thread keeps its Inbox copy's receipt and expunge (the
    /// server's Archive copy replaced it) beside the Archive copy's receipt; a starred thread the server expunged,
    /// and a thread expunged with no action on it, keep their receipts and expunges (they had shown none, or been
    /// "no thread").
    func testAThreadsHistoryKeepsTheCopiesItHadThroughSyncs() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(3, via: c)
        let (t0, t1, t2) = (try thread("m0"), try thread("m1"), try thread("m2"))
        try actions.archiveThread(id: t0)
        try actions.starThreads(ids: [t1])
        try sync()
        try sync()
        _ = try c.select(MailboxName("INBOX"), readOnly: false)
        for id in ["m1", "m2"] {
            let uid = try XCTUnwrap(try c.uidSearch([.header("Message-ID", "\(id)@example.com")]).first)
            _ = try c.uidStore(UIDSet(uid), .add, flags: ["\\Deleted"])
        }
        try c.expunge()
        try sync()
        func types(_ t: String) throws -> [EventType] { try store.history(of: .thread(t)).map(\.envelope.type) }
        let archived = try types(t0)
        XCTAssertEqual(archived.filter { $0 == .emailReceived }.count, 2, "the Inbox copy and the Archive's: \(archived)")
        XCTAssertEqual(archived.filter { $0 == .emailExpunged }.count, 1, "the Inbox copy's expunge: \(archived)")
        XCTAssertTrue(archived.contains(.threadArchived), "\(archived)")
        let starred = try types(t1)
        for type in [EventType.emailReceived, .threadStarred, .actionApplied, .emailExpunged] {
            XCTAssertTrue(starred.contains(type), "the starred thread's history lacks \(type): \(starred)")
        }
        XCTAssertEqual(try types(t2).filter { $0 != .emailCategorized }, [.emailReceived, .emailExpunged], "a thread expunged with no action")
    }

    /// An undo of an action with refused parts whose applied mail is gone since: undone all the same (nothing to send
    /// back), which takes it off the failed list; a "nothing to do" there had left it failed for good.
    func testAnUndoOfAPartlyRefusedActionWhoseMailIsGoneTakesItOffTheFailedList() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(1, locked: 1, via: c)
        try imap.readOnly(user: user, folder: path("Locked"), rights: "lr")
        let action = try actions.starThreads(ids: [try thread("m0"), try thread("l0")])
        let report = try sync()
        XCTAssertEqual(report.actions.applied, 1)
        XCTAssertEqual(report.actions.rejected, 1)
        _ = try c.select(MailboxName("INBOX"), readOnly: false)
        let uid = try XCTUnwrap(try c.uidSearch([.header("Message-ID", "m0@example.com")]).first)
        _ = try c.uidStore(UIDSet(uid), .add, flags: ["\\Deleted"])
        try c.expunge()
        try sync()
        XCTAssertEqual(try views.failedActions(account: accountName).map(\.id), [action])
        _ = try actions.undo(actionId: action.description)
        XCTAssertTrue(try views.failedActions(account: accountName).isEmpty, "off the failed list")
    }

    /// Two actions on one thread waiting for the server, undone oldest first: refused, the newest first instead. Undone
    /// in that order (archive, delete, undo of the archive, undo of the delete) the views had shown the thread in the
    /// Archive for good while the server kept it in the Inbox.
    func testStackedActionsAreUndoneNewestFirst() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let t = try thread("m0")
        let archive = try actions.archiveThread(id: t)
        let delete = try actions.deleteThread(id: t)
        XCTAssertThrowsError(try actions.undo(actionId: archive.description)) { error in
            XCTAssertTrue("\(error)".contains("undo \(delete) first"), "\(error)")
        }
        XCTAssertTrue(try threads("Trash").contains(["m0@example.com"]), "nothing undone")
        _ = try actions.undo(actionId: delete.description)
        XCTAssertTrue(try threads("Archive").contains(["m0@example.com"]))
        _ = try actions.undo(actionId: archive.description)
        XCTAssertTrue(try threads("INBOX").contains(["m0@example.com"]))
        try sync()
        XCTAssertEqual(try folderOf("m0", via: c), ["INBOX"])
        XCTAssertTrue(try threads("INBOX").contains(["m0@example.com"]))
        try assertViewsMatchServer()
        try assertRebuildAgrees()
    }

    func testEveryActionShowsAtOnceReachesTheServerAndTheNextSyncAgrees() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(6, via: c)
        let (t0, t1, t2, t3, t4) = (try thread("m0"), try thread("m1"), try thread("m2"), try thread("m3"), try thread("m4"))
        try actions.archiveThread(id: t0)
        try actions.deleteThread(id: t1)
        try actions.toggleReadStatus(threadId: t2)
        try actions.toggleStarStatus(threadId: t3)
        try actions.moveThread(id: t4, toFolderId: path("Projects"))
        // At once, before any server round trip.
        let inbox = try threads("INBOX")
        XCTAssertFalse(inbox.contains(["m0@example.com"]))
        XCTAssertTrue(try threads("Archive").contains(["m0@example.com"]))
        XCTAssertTrue(try threads("Trash").contains(["m1@example.com"]))
        XCTAssertTrue(try threads("Projects").contains(["m4@example.com"]))
        XCTAssertEqual(try views.thread(id: t2)?.unreadCount, 0)
        XCTAssertEqual(try views.thread(id: t3)?.isStarred, true)
        XCTAssertEqual(try views.pendingActions(account: accountName).count, 5)
        let report = try sync()
        XCTAssertEqual(report.actions.applied, 5)
        XCTAssertEqual(report.actions.rejected, 0)
        XCTAssertTrue(try views.pendingActions(account: accountName).isEmpty)
        XCTAssertEqual(try folderOf("m0", via: c), [path("Archive")])
        XCTAssertEqual(try folderOf("m1", via: c), [path("Trash")])
        XCTAssertEqual(try folderOf("m4", via: c), [path("Projects")])
        XCTAssertTrue(try serverFlags(of: "m2", via: c).contains("\\Seen"))
        XCTAssertTrue(try serverFlags(of: "m3", via: c).contains("\\Flagged"))
        try assertViewsMatchServer()
        XCTAssertEqual(try sync().events, 0, "after write-back and sync nothing is left to record")
        // And back: unread and unstar reach the server too.
        try actions.toggleReadStatus(threadId: t2)
        try actions.toggleStarStatus(threadId: t3)
        XCTAssertEqual(try sync().actions.applied, 2)
        XCTAssertFalse(try serverFlags(of: "m2", via: c).contains("\\Seen"))
        XCTAssertFalse(try serverFlags(of: "m3", via: c).contains("\\Flagged"))
        try assertViewsMatchServer()
        try assertRebuildAgrees()
    }

    func testAFlagTheServerRefusesIsRevertedAndHistoryShowsTheChain() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let t = try thread("m0")
        // The user may set \Seen in INBOX but nothing else: Dovecot answers OK and does not keep \Flagged.
        try imap.readOnly(user: user, folder: "INBOX", rights: "lrs")
        let action = try actions.starThreads(ids: [t])
        XCTAssertEqual(try views.thread(id: t)?.isStarred, true)
        let report = try sync()
        XCTAssertEqual(report.actions.rejected, 1)
        XCTAssertEqual(try views.thread(id: t)?.isStarred, false, "the star is reverted")
        XCTAssertFalse(try serverFlags(of: "m0", via: c).contains("\\Flagged"))
        var messages: [String] = []
        try store.log.scan(filter: ScanFilter(types: [.flagRejected])) { ev in
            if case .flagRejected(let p) = try ev.decode() { messages.append(p.message) }
            return true
        }
        XCTAssertEqual(messages, ["This provider does not support starred emails"])
        let history = try store.history(of: .thread(t)).map(\.envelope.type)
        for type in [EventType.emailReceived, .threadStarred, .actionRejected, .flagRejected] {
            XCTAssertTrue(history.contains(type), "history lacks \(type): \(history)")
        }
        XCTAssertEqual(try views.failedActions(account: accountName).map(\.id), [action])
        try imap.readWrite(user: user, folder: "INBOX")
        try assertRebuildAgrees()
    }

    /// Spec 004, E-29: a refused star says "This provider does not support starred emails" (the server's reason
    /// after it) in the write-back's report, the action's recorded reason and `actions --failed`, whether the
    /// folder is read-only (`lr`) or keeps no \Flagged (`lrs`); a refused move keeps the server's reason alone.
    func testARefusedStarSaysSoInTheSpecsWordsEverywhere() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let spec = "This provider does not support starred emails"
        for (i, rights) in ["lr", "lrs"].enumerated() {
            try imap.readOnly(user: user, folder: "INBOX", rights: rights)
            let action = try actions.starThreads(ids: [try thread("m\(i)")])
            let report = try XCTUnwrap(try store.pushActions(for: action.description))
            XCTAssertEqual(report.rejected, 1, rights)
            let reason = try XCTUnwrap(report.problems.first?.reason, rights)
            XCTAssertTrue(reason.hasPrefix(spec + " ("), "\(rights): \(reason)")
            try views.catchUp()
            XCTAssertEqual(try views.action(id: action.description)?.lastError, reason, rights)
            XCTAssertTrue(try views.failedActions(account: accountName).contains { $0.id == action && $0.lastError == reason }, rights)
            var recorded: [String] = []
            try store.log.scan(filter: ScanFilter(types: [.actionRejected], stream: .action(action))) { ev in
                if case .actionRejected(let p) = try ev.decode() { recorded.append(p.reason) }
                return true
            }
            XCTAssertEqual(recorded, [reason], rights)
            try imap.readWrite(user: user, folder: "INBOX")
        }
        try imap.readOnly(user: user, folder: "INBOX", rights: "lr")
        let move = try actions.archiveThreads(ids: [try thread("m0")])
        let moved = try XCTUnwrap(try store.pushActions(for: move.description))
        XCTAssertFalse(moved.problems.first?.reason.hasPrefix(spec) ?? true, "\(moved.problems)")
        try imap.readWrite(user: user, folder: "INBOX")
    }

    func testAMoveIntoAReadOnlyFolderIsRefusedAndPutBack() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let t = try thread("m1")
        try imap.readOnly(user: user, folder: "INBOX", rights: "lr")
        try actions.archiveThreads(ids: [t])
        XCTAssertFalse(try threads("INBOX").contains(["m1@example.com"]))
        let report = try sync()
        XCTAssertEqual(report.actions.rejected, 1)
        XCTAssertTrue(try threads("INBOX").contains(["m1@example.com"]), "back in the Inbox")
        XCTAssertFalse(try threads("Archive").contains(["m1@example.com"]))
        try imap.readWrite(user: user, folder: "INBOX")
        XCTAssertEqual(try folderOf("m1", via: c), ["INBOX"])
        try assertRebuildAgrees()
    }

    func testUndoBeforeAndAfterWriteBack() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(3, via: c)
        let (t0, t1) = (try thread("m0"), try thread("m1"))
        // Before write-back: nothing ever reaches the server.
        let star = try actions.starThreads(ids: [t0])
        try actions.undo(actionId: star.description)
        XCTAssertEqual(try views.thread(id: t0)?.isStarred, false)
        XCTAssertTrue(try views.pendingActions(account: accountName).isEmpty)
        XCTAssertThrowsError(try actions.undo(actionId: star.description))
        // After write-back (and a sync that replaced the moved copy): the inverse goes to the server.
        let archive = try actions.archiveThreads(ids: [t1])
        try sync()
        XCTAssertEqual(try folderOf("m1", via: c), [path("Archive")])
        try actions.undo(actionId: archive.description)
        XCTAssertTrue(try threads("INBOX").contains(["m1@example.com"]), "back in the Inbox at once")
        let report = try sync()
        XCTAssertEqual(report.actions.applied, 1)
        XCTAssertEqual(try folderOf("m1", via: c), ["INBOX"])
        XCTAssertFalse(try serverFlags(of: "m0", via: c).contains("\\Flagged"))
        try assertViewsMatchServer()
        let chain = try store.history(of: .action(archive.description)).map(\.envelope.type)
        XCTAssertEqual(chain.filter { [.threadArchived, .actionApplied, .actionUndone, .threadMoved].contains($0) },
                       [.threadArchived, .actionApplied, .actionUndone, .threadMoved, .actionApplied])
        try assertRebuildAgrees()
    }

    /// The usual undo of a client that writes back at once (`--push`, `sync --watch`): the archive is on the server,
    /// no sync has yet seen where it went, and the move back must find the message in the Archive by Message-ID
    /// (it had been refused as "no longer on the server", and the next sync archived it again).
    func testAnUndoRightAfterThePushBeforeAnySyncMovesTheMessageBack() throws {
        let c = try server()
        defer { c.logout() }
        let archive = try archivedAndPushed("m0", via: c).archive
        try actions.undo(actionId: archive.description)
        XCTAssertEqual(try store.pushActions(for: archive.description)?.applied, 1)
        XCTAssertEqual(try folderOf("m0", via: c), ["INBOX"])
        try sync()
        XCTAssertTrue(try threads("INBOX").contains(["m0@example.com"]))
        try assertViewsMatchServer()
        try assertRebuildAgrees()
    }

    /// Two one-message threads synced; `id`'s thread archived and pushed at once, no sync after it (the server
    /// has the message in the Archive, the sync state still in the Inbox). Returns the thread and the archive.
    @discardableResult
    private func archivedAndPushed(_ id: String, via c: IMAPConnection) throws -> (thread: String, archive: EventID) {
        try prepare(2, via: c)
        let t = try thread(id)
        let archive = try actions.archiveThreads(ids: [t])
        XCTAssertEqual(try store.pushActions(for: archive.description)?.applied, 1)
        XCTAssertEqual(try folderOf(id, via: c), [path("Archive")])
        return (t, archive)
    }

    /// A flag set on mail a write-back has just moved, before any sync saw where it went (archive, then star, each
    /// pushed at once): the copy is found in the Archive by Message-ID and flagged there. It had been recorded as
    /// applied to a copy gone from the Inbox, and the next sync took the star away.
    func testAFlagOnMailJustMovedIsSetWhereTheMessageWent() throws {
        let c = try server()
        defer { c.logout() }
        let t = try archivedAndPushed("m0", via: c).thread
        let star = try actions.starThreads(ids: [t])
        XCTAssertEqual(try store.pushActions(for: star.description)?.applied, 1)
        XCTAssertTrue(try serverFlags(of: "m0", in: "Archive", via: c).contains("\\Flagged"))
        try sync()
        XCTAssertEqual(try views.thread(id: t)?.isStarred, true, "still starred after the sync")
        try assertViewsMatchServer()
    }

    /// Archive, then delete, each pushed at once before any sync: the delete finds the message in the Archive by
    /// Message-ID and moves it to the Trash (it had been refused as "no longer on the server" and reverted).
    func testADeleteOfMailJustArchivedMovesItFromTheArchive() throws {
        let c = try server()
        defer { c.logout() }
        let t = try archivedAndPushed("m0", via: c).thread
        let delete = try actions.deleteThreads(ids: [t])
        XCTAssertEqual(try store.pushActions(for: delete.description)?.applied, 1)
        XCTAssertEqual(try folderOf("m0", via: c), [path("Trash")])
        try sync()
        XCTAssertEqual(try views.thread(id: t)?.folders, [path("Trash")])
        try assertViewsMatchServer()
    }

    /// A delete (a move to the Trash) of mail another client expunged before the write-back: nothing is left to move,
    /// so it is applied, as a flag action on it is. It had been refused ("no longer on the server"), reverted in the
    /// views, and kept among the failed actions for good (its thread gone, nothing to retry).
    func testADeleteOfMailAnotherClientExpungedIsDoneNotFailed() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let t = try thread("m0")
        let delete = try actions.deleteThreads(ids: [t])
        _ = try c.select(MailboxName("INBOX"), readOnly: false)
        let uid = try XCTUnwrap(try c.uidSearch([.header("Message-ID", "m0@example.com")]).first)
        _ = try c.uidStore(UIDSet(uid), .add, flags: ["\\Deleted"])
        try c.expunge()
        let report = try XCTUnwrap(try store.pushActions(for: delete.description))
        XCTAssertEqual(report.applied, 1)
        XCTAssertEqual(try store.failedActions(account: accountName).count, 0, "nothing left failed")
        XCTAssertEqual(try folderOf("m0", via: c), [])
        try sync()
        XCTAssertNil(try views.thread(id: t), "the next sync drops it")
        try assertViewsMatchServer()
        try assertRebuildAgrees()
    }

    /// An action whose write-back failed (a lost connection) waits for its retry time; a write-back meanwhile counts
    /// its copies as waiting (a sync had said "0 to retry" while it waited).
    func testAnActionWaitingForItsRetryTimeIsCountedAsWaiting() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let star = try actions.starThreads(ids: [try thread("m0")])
        let record = try XCTUnwrap(try views.action(id: star.description))
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        defer { engine.disconnect() }
        var outcome = SyncEngine.ActionOutcome()
        outcome.failedReason = "the connection was lost"
        var first = WriteBackReport()
        try engine.record(record, outcome, into: &first)
        XCTAssertEqual(first.failed, 1)
        let report = try engine.writeBack()
        XCTAssertEqual(report.waiting, 1, "\(report)")
        XCTAssertEqual(report.applied + report.failed + report.rejected, 0, "nothing sent before its retry time")
    }

    /// An undo from another process while a write-back has the server carry the action out (between its MOVE and
    /// its recorded outcome) waits for that outcome, then queues the inverse: the next sync puts the message back.
    /// Without the wait the undo only reverted the views, and the next sync brought the server's archive back.
    func testAnUndoDuringTheWriteBackOfItsActionWaitsAndQueuesTheInverse() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let archive = try actions.archiveThreads(ids: [try thread("m0")])
        let record = try XCTUnwrap(try views.action(id: archive.description))
        // The write-back, as far as the server: the action's lock held, its MOVE done, its outcome not yet recorded.
        let writeBack = try AccountLock(store: store.directory, kind: SyncEngine.writeBackLockKind, account: accountName, waitSeconds: 0)
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        defer { engine.disconnect() }
        let conn = try engine.connect()
        var ignored = SyncReport(account: accountName)
        engine.mapped = try engine.discoverFolders(conn, report: &ignored)
        var outcome = SyncEngine.ActionOutcome()
        try engine.perform(record, conn, into: &outcome)
        XCTAssertEqual(try folderOf("m0", via: c), [path("Archive")])
        let undo = try startMailstore(["undo", archive.description])
        usleep(700_000)
        XCTAssertTrue(undo.isRunning, "the undo waits for the write-back in flight")
        var report = WriteBackReport()
        try engine.record(record, outcome, into: &report)
        writeBack.release()
        undo.waitUntilExit()
        XCTAssertEqual(undo.terminationStatus, 0)
        _ = try store.latestViews()
        var undone: ActionUndone?
        try store.log.scan(filter: ScanFilter(types: [.actionUndone], stream: .action(archive))) { ev in
            if case .actionUndone(let p) = try ev.decode() { undone = p }
            return true
        }
        XCTAssertEqual(undone?.serverInverseQueued, true, "the server had it: an inverse is queued")
        XCTAssertTrue(try threads("INBOX").contains(["m0@example.com"]), "back in the Inbox at once")
        // Written back before any sync saw where the archive put the message: found there by Message-ID.
        XCTAssertEqual(try sync().actions.applied, 1)
        XCTAssertEqual(try folderOf("m0", via: c), ["INBOX"], "and on the server")
        try assertViewsMatchServer()
        try assertRebuildAgrees()
    }

    func testABatchOfTenWhereFiveAreRefusedReportsFiveAndRetries() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(5, locked: 5, via: c)
        let ids = try (0..<5).map { try thread("m\($0)") } + (0..<5).map { try thread("l\($0)") }
        try imap.readOnly(user: user, folder: path("Locked"), rights: "lr")
        let action = try actions.starThreads(ids: ids)
        let report = try sync()
        XCTAssertEqual(report.actions.applied, 5)
        XCTAssertEqual(report.actions.rejected, 5)
        XCTAssertEqual(Set(report.actions.problems.flatMap(\.threads)).count, 5, "5 threads failed")
        XCTAssertEqual(try views.failedActions(account: accountName).map(\.id), [action])
        for i in 0..<5 { XCTAssertEqual(try views.thread(id: ids[5 + i])?.isStarred, false) }
        try imap.readWrite(user: user, folder: path("Locked"))
        let retry = try XCTUnwrap(try actions.retry(actionId: action.description).first)
        XCTAssertTrue(try views.failedActions(account: accountName).isEmpty, "the retry supersedes the failure")
        let again = try sync()
        XCTAssertEqual(again.actions.applied, 5)
        XCTAssertEqual(try views.action(id: retry.description)?.state, "applied")
        for i in 0..<5 { XCTAssertTrue(try serverFlags(of: "l\(i)", in: "Locked", via: c).contains("\\Flagged")) }
        try assertViewsMatchServer()
        try assertRebuildAgrees()
    }

    // The same against Courier-IMAP and Cyrus IMAP (see docs/interop.md for the paths the engine takes there).

    func testEveryActionShowsAtOnceReachesTheServerAndTheNextSyncAgreesOnCourier() throws {
        try testEveryActionShowsAtOnceReachesTheServerAndTheNextSyncAgrees()
    }
    func testEveryActionShowsAtOnceReachesTheServerAndTheNextSyncAgreesOnCyrus() throws {
        try testEveryActionShowsAtOnceReachesTheServerAndTheNextSyncAgrees()
    }
    func testAFlagTheServerRefusesIsRevertedAndHistoryShowsTheChainOnCourier() throws {
        try testAFlagTheServerRefusesIsRevertedAndHistoryShowsTheChain()
    }
    func testAFlagTheServerRefusesIsRevertedAndHistoryShowsTheChainOnCyrus() throws {
        try testAFlagTheServerRefusesIsRevertedAndHistoryShowsTheChain()
    }
    func testAMoveIntoAReadOnlyFolderIsRefusedAndPutBackOnCourier() throws { try testAMoveIntoAReadOnlyFolderIsRefusedAndPutBack() }
    func testAMoveIntoAReadOnlyFolderIsRefusedAndPutBackOnCyrus() throws { try testAMoveIntoAReadOnlyFolderIsRefusedAndPutBack() }
    func testUndoBeforeAndAfterWriteBackOnCourier() throws { try testUndoBeforeAndAfterWriteBack() }
    func testUndoBeforeAndAfterWriteBackOnCyrus() throws { try testUndoBeforeAndAfterWriteBack() }
    func testAFlagOnMailJustMovedIsSetWhereTheMessageWentOnCourier() throws { try testAFlagOnMailJustMovedIsSetWhereTheMessageWent() }
    func testAFlagOnMailJustMovedIsSetWhereTheMessageWentOnCyrus() throws { try testAFlagOnMailJustMovedIsSetWhereTheMessageWent() }
    func testAnUndoRightAfterThePushBeforeAnySyncMovesTheMessageBackOnCourier() throws {
        try testAnUndoRightAfterThePushBeforeAnySyncMovesTheMessageBack()
    }
    func testAnUndoRightAfterThePushBeforeAnySyncMovesTheMessageBackOnCyrus() throws {
        try testAnUndoRightAfterThePushBeforeAnySyncMovesTheMessageBack()
    }
    func testABatchOfTenWhereFiveAreRefusedReportsFiveAndRetriesOnCourier() throws {
        try testABatchOfTenWhereFiveAreRefusedReportsFiveAndRetries()
    }
    func testABatchOfTenWhereFiveAreRefusedReportsFiveAndRetriesOnCyrus() throws {
        try testABatchOfTenWhereFiveAreRefusedReportsFiveAndRetries()
    }

    /// Archive, move, star, then an undo of the move, all before the next sync: the star reaches the copy where the
    /// views have it (the Archive) and stays. It had been looked for only in the move's folder (where the star saw the
    /// copy), not found there, and counted as applied: the views then lost the star too.
    func testAFlagTakenAfterAnUndoneMoveReachesTheCopyWhereItIsNow() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let t = try thread("m0")
        try actions.archiveThread(id: t)
        let move = try actions.moveThread(id: t, toFolderId: path("Projects"))
        try actions.starThreads(ids: [t])
        try actions.undo(actionId: move.description)
        XCTAssertTrue(try threads("Archive").contains(["m0@example.com"]))
        XCTAssertEqual(try views.thread(id: t)?.isStarred, true)
        try sync()
        try sync()
        XCTAssertEqual(try folderOf("m0", via: c), [path("Archive")])
        XCTAssertTrue(try serverFlags(of: "m0", in: "Archive", via: c).contains("\\Flagged"), "the star is on the server")
        XCTAssertEqual(try views.thread(id: t)?.isStarred, true, "and stays in the views")
        try assertRebuildAgrees()
    }

    /// A move refused because another client deleted its folder: the retry says the folder is gone and what to do
    /// (it had said "no folder 'Projects'", exit 4, with the action left on the failed list).
    func testARetryOfAMoveWhoseFolderIsGoneSaysWhatToDo() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(2, via: c)
        let t = try thread("m0")
        let move = try actions.moveThread(id: t, toFolderId: path("Projects"))
        try c.delete(MailboxName(path("Projects")))
        try sync()
        XCTAssertTrue(try threads("INBOX").contains(["m0@example.com"]), "the refused move is reverted")
        XCTAssertThrowsError(try actions.retry(actionId: move.description)) { error in
            XCTAssertTrue("\(error)".contains("is no longer there") && "\(error)".contains("mailstore undo \(move)"), "\(error)")
            XCTAssertEqual(ErrorCategory(of: error), .refused)
        }
    }
}
