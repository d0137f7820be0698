import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import Projections
import SyncCore

/// Server drafts: each saved version of a draft is APPENDed to the Drafts-role folder with `\Draft` and
/// `\Seen`, then the copy before it is deleted (`\Deleted` and `UID EXPUNGE`, or a plain `EXPUNGE` only when no
/// other message there is marked `\Deleted`); a sent or discarded draft's last copy is deleted. Every step is a
/// `DraftCopyChanged` (`appending` before the APPEND, so an interrupted one is found again by its Message-ID).
/// With no Drafts folder on the server the draft stays local and the user is warned; a failure is retried with
/// backoff by the next write-back (sync, `--watch`, `draft ... --push`).
extension SyncEngine {
    /// The warning when the server has no Drafts folder.
    static let noDraftsFolder = "the server has no Drafts folder: the draft is kept on this device only"

    /// Puts the account's drafts on the server now (those waiting for a retry too when `force`).
    public func syncDrafts(force: Bool = false) throws -> DraftSyncReport {
        try exclusively { try syncDraftsLocked(force: force) }
    }

    /// One draft (nil when sent or deleted) and its server state.
    struct DraftWork {
        var draft: DraftRecord?
        var state: DraftServerState
        var id: String { state.draftID }
    }

    /// Every draft of the account (and every server copy of a sent or discarded one) with its server state, and
    /// those that need the server now (those waiting for a retry too when `force`).
    func draftWork(force: Bool) throws -> (all: [DraftWork], todo: [DraftWork]) {
        let views = try store.latestViews()
        var states = Dictionary(try views.draftServerStates(account: account.name).map { ($0.draftID, $0) }, uniquingKeysWith: { a, _ in a })
        var work: [DraftWork] = []
        for d in try views.drafts(account: account.name) {
            let id = d.latest.draftID
            let state = states.removeValue(forKey: id) ?? DraftServerState(account: account.name, draftID: id)
            // A message in the outbox, or sent and not yet filed, is no draft for other clients: its latest version is
            // not APPENDed to Drafts (it had been, during an undo delay and before a pending filing), and a copy stored
            // before it was queued waits: deleted once it is sent, the draft's again if it is taken back.
            if let s = try views.outboxItem(draftID: id)?.state, s.inOutbox || s == .sent { continue }
            work.append(DraftWork(draft: d, state: state))
        }
        work += states.values.sorted { $0.draftID < $1.draftID }.map { DraftWork(draft: nil, state: $0) }
        let hasDraftsFolder = try views.folders(account: account.name).contains { $0.role == .drafts }
        return (work, work.filter { needsServerWork($0, force: force, hasDraftsFolder: hasDraftsFolder) })
    }

    func syncDraftsLocked(force: Bool) throws -> DraftSyncReport {
        var report = DraftSyncReport()
        let (work, todo) = try draftWork(force: force)
        if force {
            // Asked for now: the drafts kept local earlier are named again (a warning, nothing recorded).
            let ids = Set(todo.map(\.id))
            for w in work where !ids.contains(w.id) && w.draft.map({ $0.latest.draftVersion == w.state.localOnlyVersion }) == true {
                report.problems.append(.init(draft: w.id, reason: w.state.problem, localOnly: true, retrying: false))
            }
        }
        guard !todo.isEmpty else { return report }
        let conn: IMAPConnection
        do {
            conn = try connect()
            if mapped.isEmpty {
                var ignored = SyncReport(account: account.name)
                mapped = try discoverFolders(conn, report: &ignored)
            }
        } catch let e as SyncError where SyncWatcher.isTransient(e) {
            for w in todo { try draftFailed(w, reason: e.description, into: &report) }
            return report
        }
        for w in todo {
            do {
                try syncDraft(w, conn, into: &report)
            } catch let e as IMAPClientError {
                try draftFailed(w, reason: e.description, into: &report)
                if case .commandFailed = e { continue }
                disconnect()  // the connection is gone: the rest waits for the next write-back
                break
            } catch {
                // The copy could not be composed (an attachment's blob missing, an unusable sender address).
                try draftFailed(w, reason: "\(error)", into: &report)
            }
        }
        return report
    }

    /// Whether a draft needs the server: its latest version is not there yet, or a copy is to be deleted.
    func needsServerWork(_ w: DraftWork, force: Bool, hasDraftsFolder: Bool) -> Bool {
        guard force || (w.state.retryAt.map { RetryBackoff.hasCome($0) } ?? true) else { return false }
        guard let d = w.draft else { return !w.state.copies.isEmpty }
        let version = d.latest.draftVersion
        if let current = w.state.stored(version: version) { return w.state.copies.contains { $0 != current } }
        return w.state.localOnlyVersion != version || hasDraftsFolder
    }

    /// Stores the draft's latest version (unless it is there) and deletes the copies before it.
    func syncDraft(_ w: DraftWork, _ conn: IMAPConnection, into report: inout DraftSyncReport) throws {
        var current: DraftServerState.Copy?
        if let d = w.draft {
            current = w.state.stored(version: d.latest.draftVersion)
            if current == nil {
                guard let folder = mapped.first(where: { $0.role == .drafts && $0.syncable }) else {
                    if w.state.localOnlyVersion != d.latest.draftVersion {
                        try commitDraftChange(DraftCopyChanged(draftID: w.id, change: .localOnly, draftVersion: d.latest.draftVersion,
                                                               reason: SyncEngine.noDraftsFolder))
                    }
                    report.problems.append(.init(draft: w.id, reason: SyncEngine.noDraftsFolder, localOnly: true, retrying: false))
                    return
                }
                current = try storeDraft(d, w.state, in: folder, conn)
                report.stored += 1
            }
        }
        for copy in w.state.copies where copy.messageID != current?.messageID {
            try removeDraftCopy(copy, draftID: w.id, conn)
            report.removed += 1
        }
    }

    /// APPENDs `d`'s latest version with `\Draft` and `\Seen` (or finds the copy an interrupted run APPENDed).
    private func storeDraft(_ d: DraftRecord, _ s: DraftServerState, in folder: MappedFolder,
                            _ conn: IMAPConnection) throws -> DraftServerState.Copy {
        let version = d.latest.draftVersion
        let composed = try OutboxUseCase(store: store).compose(d, due: d.savedAt, draftCopy: true)
        let messageID = composed.messageID
        var uid: UInt32 = 0, validity: UInt32 = 0
        if s.copies.contains(where: { $0.messageID == messageID }) {
            // Recorded as appending before: the APPEND may have happened.
            let sel = try conn.select(folder.mailbox, readOnly: true, condstore: false)
            if let found = try conn.uidSearch([.header("Message-ID", messageID)]).max() { (uid, validity) = (found, sel.uidValidity) }
        } else {
            try commitDraftChange(DraftCopyChanged(draftID: d.latest.draftID, change: .appending, draftVersion: version,
                                                   folder: folder.path, messageID: messageID))
        }
        if uid == 0 {
            if let appended = try conn.appendFiledCopy(composed, to: folder.mailbox, flags: ["\\Draft", "\\Seen"]) {
                (uid, validity) = (appended.uid, appended.uidValidity)
            } else {
                let sel = try conn.select(folder.mailbox, readOnly: true, condstore: false)
                (uid, validity) = (try conn.uidSearch([.header("Message-ID", messageID)]).max() ?? 0, sel.uidValidity)
            }
        }
        SyncEngine.failpoint("after-draft-append")
        try commitDraftChange(DraftCopyChanged(draftID: d.latest.draftID, change: .stored, draftVersion: version, folder: folder.path,
                                               messageID: messageID, uid: uid, uidValidity: validity))
        return DraftServerState.Copy(version: version, folder: folder.path, messageID: messageID, uid: uid, uidValidity: validity, stored: true)
    }

    /// Deletes one server copy: by its UID when still valid (and still ours), else found by Message-ID.
    private func removeDraftCopy(_ copy: DraftServerState.Copy, draftID: String, _ conn: IMAPConnection) throws {
        var note = ""
        if let folder = mapped.first(where: { $0.path == copy.folder }), !copy.messageID.isEmpty {
            let sel = try conn.select(folder.mailbox, readOnly: false, condstore: false)
            var keys: [SearchKey] = [.header("Message-ID", copy.messageID)]
            if copy.uid != 0 && copy.uidValidity == sel.uidValidity { keys.insert(.uid(UIDSet([copy.uid])), at: 0) }
            let uids = sel.exists == 0 ? [] : try conn.uidSearch(keys)
            if !uids.isEmpty, let trash = gmailTrash(leaving: folder, conn) {
                // Gmail: an expunge from Drafts removes the \Draft label only, leaving a copy without a label in All Mail
                // for every version saved; a message is deleted by moving it to Trash (emptied by Gmail after 30 days).
                _ = try conn.uidMove(UIDSet(uids), to: trash.mailbox)
            } else if !uids.isEmpty {
                _ = try conn.uidStore(UIDSet(uids), .add, flags: ["\\Deleted"])
                if try !conn.expungeOnly(UIDSet(uids)) {
                    note = "marked \\Deleted but not expunged: other messages in \(copy.folder) are marked \\Deleted too"
                }
            }
        } else {
            note = "the folder \(copy.folder) is no longer on the server"
        }
        try commitDraftChange(DraftCopyChanged(draftID: draftID, change: .removed, draftVersion: copy.version, folder: copy.folder,
                                               messageID: copy.messageID, uid: copy.uid, uidValidity: copy.uidValidity, reason: note))
    }

    /// Gmail's Trash when a copy leaving `folder` is deleted by moving it there (Gmail with MOVE, a Trash-role folder
    /// other than `folder`), else nil (the copy is expunged).
    private func gmailTrash(leaving folder: MappedFolder, _ conn: IMAPConnection) -> MappedFolder? {
        guard provider.hasGmailExtensions, conn.has("MOVE") else { return nil }
        return mapped.first { $0.role == .trash && $0.path != folder.path }
    }

    /// Records a failed step; it is tried again after a backoff.
    private func draftFailed(_ w: DraftWork, reason text: String, into report: inout DraftSyncReport) throws {
        let reason = RecordedText.bounded(text)
        let attempt = w.state.attempts + 1
        try commitDraftChange(DraftCopyChanged(draftID: w.id, change: .failed, draftVersion: w.draft?.latest.draftVersion ?? 0,
                                               reason: reason, attempt: attempt, retryAt: RetryBackoff.next(after: attempt)))
        report.problems.append(.init(draft: w.id, reason: reason, localOnly: false, retrying: true))
    }

    private func commitDraftChange(_ p: DraftCopyChanged) throws {
        try store.commit([event(.draftCopyChanged(p), stream: .draft(p.draftID))])
    }
}
