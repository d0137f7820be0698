import EventLog
import EventModel
import MailStore
import Projections
import Views
import XCTest

/// Thread actions on the views alone (mail with no server copy): applied at once, undone, refused when
/// impossible, and folded the same way by a rebuild.
final class ActionViewTests: ViewsTestCase {
    private func setUpMail() throws -> (ManageThreadActionsUseCase, String) {
        try folder("INBOX", role: .inbox)
        try folder("Archive", role: .archive)
        try folder("Trash", role: .trash)
        try receive("e1", subject: "One")
        try receive("e2", messageID: "e2@example.com", inReplyTo: ["e1@example.com"], subject: "Re: One")
        let v = try views()
        let thread = try XCTUnwrap(try v.emailRecord(id: "e1")).threadID
        return (ManageThreadActionsUseCase(store: store), thread)
    }

    func testActionsChangeTheViewsAtOnceAndUndoPutsThemBack() throws {
        let (actions, t) = try setUpMail()
        let v = try store.openViews()
        XCTAssertEqual(try v.unreadCount(account: "acct", folder: "INBOX", category: "all"), 2)
        let read = try actions.toggleReadStatus(threadId: t)
        XCTAssertEqual(try v.unreadCount(account: "acct", folder: "INBOX", category: "all"), 0)
        XCTAssertEqual(try v.thread(id: t)?.unreadCount, 0)
        let archive = try actions.archiveThread(id: t)
        XCTAssertEqual(try v.unreadCount(account: "acct", folder: "Archive", category: UnreadProjector.totalCategory), 2)
        XCTAssertEqual(try v.thread(id: t)?.folders, ["Archive"])
        try actions.undo(actionId: archive.description)
        XCTAssertEqual(try v.thread(id: t)?.folders, ["INBOX"])
        try actions.undo(actionId: read.description)
        XCTAssertEqual(try v.unreadCount(account: "acct", folder: "INBOX", category: "all"), 2)
        XCTAssertEqual(try v.action(id: archive.description)?.state, "undone")
        let report = try v.compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }

    /// An undo moves each copy back from where it is now with its flags now: read for all the copies at once
    /// (`emailCopyStates`), each copy keeps its own.
    func testUndoMovesEachCopyBackWithItsOwnStateNow() throws {
        let (actions, t) = try setUpMail()
        try receive("e3", messageID: "e3@example.com", inReplyTo: ["e2@example.com"], subject: "Re: One", flags: ["\\Flagged"])
        let v = try store.openViews()
        let archive = try actions.archiveThread(id: t)
        // Since the archive the server says e2 was read.
        try event(.flagsChanged(FlagsChanged(emailID: "e2", folder: "Archive", flags: ["\\Seen"])))
        try v.catchUp()
        try actions.undo(actionId: archive.description)
        var inverse: ThreadAction?
        try store.log.scan { ev in
            if case .threadMoved(let a) = try ev.decode(), ev.envelope.causationID != nil, a.destination == "INBOX" { inverse = a }
            return true
        }
        let moved = try XCTUnwrap(inverse, "the undo's inverse move")
        XCTAssertEqual(moved.targets.map(\.emailID), ["e1", "e2", "e3"])
        XCTAssertEqual(moved.targets.map(\.folder), ["Archive", "Archive", "Archive"])
        XCTAssertEqual(moved.targets.map(\.flags), [[], ["\\Seen"], ["\\Flagged"]])
        XCTAssertEqual(try v.thread(id: t)?.folders, ["INBOX"])
    }

    /// The copies' states are read a chunk per read transaction: however many ids (more than a chunk here, some
    /// the view does not have), each state is the copy's own, in order.
    func testCopyStatesReadInChunksAreEachCopysOwnInOrder() throws {
        _ = try setUpMail()
        try receive("e3", folder: "Archive", flags: ["\\Seen"])
        let v = try store.openViews()
        let ids = ["e3", "nope", "e1", "e2", "e3", "e1", "gone", "e2"]
        let expected = try ids.map { id in try v.emailRecord(id: id).map(EmailCopyState.init) }
        XCTAssertEqual(expected.compactMap { $0?.folder }, ["Archive", "INBOX", "INBOX", "Archive", "INBOX", "INBOX"])
        for chunk in [1, 2, 3, 8, 100] {
            XCTAssertEqual(try v.emailCopyStates(ids: ids, chunk: chunk), expected, "chunks of \(chunk)")
        }
        XCTAssertEqual(try v.emailCopyStates(ids: []), [])
    }

    func testImpossibleActionsAreRefusedWithTheSpecWording() throws {
        try folder("INBOX", role: .inbox)
        try receive("e1")
        let v = try views()
        let actions = ManageThreadActionsUseCase(store: store)
        let t = try XCTUnwrap(try v.emailRecord(id: "e1")).threadID
        XCTAssertThrowsError(try actions.archiveThread(id: t)) { error in
            XCTAssertEqual("\(error)", "No archive folder: move to a specific folder instead?")
        }
        XCTAssertThrowsError(try actions.moveThread(id: t, toFolderId: "Nope")) { error in
            guard case ThreadListError.folderNotFound(let id) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(id, "Nope")
        }
        XCTAssertThrowsError(try actions.archiveThread(id: "no-such-thread")) { error in
            guard case ThreadListError.threadNotFound = error else { return XCTFail("\(error)") }
        }
        try actions.markThreadsRead(ids: [t])
        XCTAssertThrowsError(try actions.markThreadsRead(ids: [t])) { error in
            XCTAssertTrue("\(error)".contains("read already"), "\(error)")
        }
        XCTAssertThrowsError(try actions.undo(actionId: "0190aaaa-0000-7000-8000-000000000000"))
    }

    func testABatchIsOneActionAndHistoryFindsIt() throws {
        try folder("INBOX", role: .inbox)
        try receive("a")
        try receive("b")
        let v = try views()
        let actions = ManageThreadActionsUseCase(store: store)
        let ta = try XCTUnwrap(try v.emailRecord(id: "a")).threadID, tb = try XCTUnwrap(try v.emailRecord(id: "b")).threadID
        let id = try actions.starThreads(ids: [ta, tb])
        XCTAssertEqual(try v.action(id: id.description)?.targets.count, 2)
        XCTAssertEqual(try v.thread(id: ta)?.isStarred, true)
        XCTAssertEqual(try v.thread(id: tb)?.isStarred, true)
        let history = try store.history(of: .email("a")).map(\.envelope.type)
        XCTAssertEqual(history, [.emailReceived, .threadStarred, .actionApplied], "no server: complete at once")
    }

    /// Spec AC-U-04 and docs/cli.md: in a batch, a thread with nothing to do (archived already, in the Trash
    /// already) fails alone, with its reason: it is no thread of the action (had been reported as acted on), the
    /// others are applied.
    func testABatchThreadWithNothingToDoFailsAloneAndIsNoThreadOfTheAction() throws {
        try folder("Trash", role: .trash)
        let (v, threads) = try inboxThreads(3)
        let actions = ManageThreadActionsUseCase(store: store)
        try actions.archiveThread(id: threads[1])
        let archive = actions.batch(.archive, ids: threads)
        XCTAssertEqual(archive.actions.map(\.threads), [[threads[0], threads[2]]])
        XCTAssertEqual(archive.failures.map(\.thread), [threads[1]])
        XCTAssertTrue(archive.failures.first?.reason.contains("nothing to do: no message of these threads is in the Inbox") == true,
                      "\(archive.failures.map(\.reason))")
        XCTAssertEqual(archive.failures.first.map { ErrorCategory(of: $0.error) }, .refused)
        let recorded = try XCTUnwrap(try v.action(id: archive.actions[0].action))
        XCTAssertEqual(recorded.threadIDs, [threads[0], threads[2]])
        XCTAssertFalse(try v.actionIDs(touching: threads[1]).contains(recorded.id.description), "no action of the thread it left alone")
        // Delete of a thread in the Trash already, beside one that is not.
        try actions.deleteThread(id: threads[0])
        let delete = actions.batch(.delete, ids: [threads[0], threads[2]])
        XCTAssertEqual(delete.actions.map(\.threads), [[threads[2]]])
        XCTAssertEqual(delete.failures.map(\.thread), [threads[0]])
        XCTAssertTrue(delete.failures.first?.reason.contains("in the Trash already") == true, "\(delete.failures.map(\.reason))")
        // Nothing to do on any: every thread fails, no action.
        let none = actions.batch(.delete, ids: [threads[0], threads[2]])
        XCTAssertTrue(none.actions.isEmpty)
        XCTAssertEqual(none.failures.map(\.thread), [threads[0], threads[2]])
        let report = try v.compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }

    /// A refused star or unstar shows the spec's words (spec 004, E-29), the server's reason after them, in
    /// `actions --failed` even for a refusal recorded with the server's reason alone (before this wording).
    func testARefusedStarShowsTheSpecsWordsInTheFailedActions() throws {
        let (v, threads) = try inboxThreads(2)
        let star = EventID.generate(), move = EventID.generate()
        let target = [ActionTarget(emailID: "m0", folder: "INBOX", flags: [])]
        try store.log.append(NewEvent(id: star, event: .threadStarred(ThreadAction(threadIDs: [threads[0]], targets: target)),
                                      account: "acct", stream: .action(star), actor: .user))
        try event(.actionRejected(ActionRejected(actionID: star, emailIDs: ["m0"], reason: "INBOX is read-only for this account")),
                  stream: .action(star))
        try store.log.append(NewEvent(id: move, event: .threadArchived(ThreadAction(threadIDs: [threads[1]], targets: [ActionTarget(emailID: "m1", folder: "INBOX", flags: [])],
                                                                                          destination: "Archive")),
                                      account: "acct", stream: .action(move), actor: .user))
        try event(.actionRejected(ActionRejected(actionID: move, emailIDs: ["m1"], reason: "INBOX is read-only for this account")),
                  stream: .action(move))
        try v.catchUp()
        XCTAssertEqual(try v.action(id: star.description)?.lastError,
                       "This provider does not support starred emails (INBOX is read-only for this account)")
        XCTAssertEqual(try v.action(id: move.description)?.lastError, "INBOX is read-only for this account", "a move's reason as it is")
        XCTAssertEqual(ActionKind.unstar.refusalReason("the server did not clear \\Flagged in INBOX"),
                       "This provider does not support starred emails (the server did not clear \\Flagged in INBOX)")
        XCTAssertEqual(ActionKind.star.refusalReason(ActionKind.star.refusalReason("x")), ActionKind.star.refusalReason("x"), "applied once")
        XCTAssertEqual(ActionKind.read.refusalReason("x"), "x")
    }

    /// A selection of more threads than one action takes is several actions of consecutive threads, each within
    /// the bounds, every thread acted on; each undoes its own; the views equal a rebuild.
    /// `n` one-message threads in the Inbox (m0...m(n-1)) of an account with an Archive, and their ids.
    private func inboxThreads(_ n: Int) throws -> (ViewStore, [String]) {
        try folder("INBOX", role: .inbox)
        try folder("Archive", role: .archive)
        var batch: [NewEvent] = []
        for i in 0..<n {
            let d = tick()
            let p = EmailReceived(emailID: "m\(i)", folder: "INBOX", messageID: "m\(i)@example.com", subject: "Thread \(i)",
                                  from: [EmailAddress(name: nil, email: "a@example.com")], date: d, dateSource: .header,
                                  size: 100, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)
            batch.append(NewEvent(event: .emailReceived(p), account: "acct", stream: .email("m\(i)"), occurredAt: d, actor: .sync))
        }
        _ = try store.log.append(batch)
        let v = try views()
        return (v, try (0..<n).map { try XCTUnwrap(try v.emailRecord(id: "m\($0)")).threadID })
    }

    func testABatchOverTheBoundIsSeveralActionsEachUndoneAlone() throws {
        let n = ManageThreadActionsUseCase.maxThreadsPerAction + 5
        let (v, threads) = try inboxThreads(n)
        let actions = ManageThreadActionsUseCase(store: store)
        XCTAssertThrowsError(try actions.archiveThreads(ids: threads)) { error in
            guard case ThreadListError.actionFailed(let u as ActionError) = error, case .tooLarge(n, 0) = u else { return XCTFail("\(error)") }
        }
        let result = actions.batch(.archive, ids: threads)
        XCTAssertTrue(result.failures.isEmpty, "\(result.failures.map(\.reason))")
        XCTAssertEqual(result.actions.map(\.threads), [Array(threads.prefix(n - 5)), Array(threads.suffix(5))])
        for t in threads { XCTAssertEqual(try v.thread(id: t)?.folders, ["Archive"]) }
        try actions.undo(actionId: result.actions[1].action)
        XCTAssertEqual(try v.thread(id: threads[n - 1])?.folders, ["INBOX"])
        XCTAssertEqual(try v.thread(id: threads[0])?.folders, ["Archive"])
        let report = try v.compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }

    /// An action recorded before the bound (more threads than one action takes now), refused by the server:
    /// its retry is cut into actions as a batch is, where it had been refused as too large.
    func testARetryOfAnActionOverTheBoundIsSeveralActions() throws {
        let n = ManageThreadActionsUseCase.maxThreadsPerAction + 5
        let (v, threads) = try inboxThreads(n)
        let legacy = EventID.generate()
        let emails = (0..<n).map { "m\($0)" }
        let action = ThreadAction(threadIDs: threads, targets: emails.map { ActionTarget(emailID: $0, folder: "INBOX", flags: []) },
                                  destination: "Archive")
        _ = try store.log.append([
            NewEvent(id: legacy, event: .threadArchived(action), account: "acct", stream: .action(legacy), actor: .user),
            NewEvent(event: .actionRejected(ActionRejected(actionID: legacy, emailIDs: emails, reason: "NO [READ-ONLY]")),
                     account: "acct", stream: .action(legacy), causationID: legacy, actor: .sync),
            NewEvent(event: .actionReverted(ActionReverted(actionID: legacy, targets: action.targets, reason: "NO [READ-ONLY]")),
                     account: "acct", stream: .action(legacy), causationID: legacy, actor: .sync),
        ])
        _ = try store.latestViews()
        XCTAssertEqual(try v.thread(id: threads[0])?.folders, ["INBOX"], "the refusal put them back")
        let retried = try ManageThreadActionsUseCase(store: store).retry(actionId: legacy.description)
        XCTAssertEqual(retried.count, 2)
        XCTAssertEqual(try retried.map { try XCTUnwrap(try v.action(id: $0.description)).threadIDs.count }, [n - 5, 5])
        for t in threads { XCTAssertEqual(try v.thread(id: t)?.folders, ["Archive"]) }
        let report = try v.compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }

    /// The cut into actions: at most `maxThreadsPerAction` threads each and, of several threads,
    /// `maxCopiesPerAction` copies; a thread bigger than that alone; the order kept.
    func testASelectionIsCutIntoActionsWithinBothBounds() {
        let most = ManageThreadActionsUseCase.maxThreadsPerAction, copies = ManageThreadActionsUseCase.maxCopiesPerAction
        let ones = (0..<(2 * most + 1)).map { (thread: "t\($0)", copies: 1) }
        XCTAssertEqual(ManageThreadActionsUseCase.actions(ones).map(\.count), [most, most, 1])
        XCTAssertEqual(ManageThreadActionsUseCase.actions(ones).flatMap { $0 }, ones.map(\.thread))
        let big: [(thread: String, copies: Int)] = [("a", copies / 2), ("b", copies / 2), ("c", 1), ("d", copies + 7), ("e", 3)]
        XCTAssertEqual(ManageThreadActionsUseCase.actions(big), [["a", "b"], ["c"], ["d"], ["e"]])
        XCTAssertEqual(ManageThreadActionsUseCase.actions([]), [])
    }
}
