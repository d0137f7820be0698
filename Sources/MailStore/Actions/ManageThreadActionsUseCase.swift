import EventLog
import EventModel
import Projections
import SyncCore
import Views

/// The spec's thread actions: archive, delete, read, star, move, one thread or a batch (one action id), and
/// undo. Each action is one event recording its resolved targets (every email copy with its folder and flags
/// at that moment), applied to the views at once; `mailstore sync` writes it back to the server. Errors come
/// as `ThreadListError`.
public struct ManageThreadActionsUseCase {
    public let store: MailStore
    var views: ViewStore { get throws { try store.views() } }

    /// The thread actions of `store`.
    public init(store: MailStore) {
        self.store = store
    }

    // MARK: - One thread

    @discardableResult public func archiveThread(id: String) throws(ThreadListError) -> EventID { try archiveThreads(ids: [id]) }
    @discardableResult public func deleteThread(id: String) throws(ThreadListError) -> EventID { try deleteThreads(ids: [id]) }
    @discardableResult public func moveThread(id: String, toFolderId folder: String) throws(ThreadListError) -> EventID {
        try moveThreads(ids: [id], toFolderId: folder)
    }

    /// Marks the thread read when it has unread mail, else unread.
    @discardableResult public func toggleReadStatus(threadId: String) throws(ThreadListError) -> EventID {
        let unread = try wrap { try views.threadEmails(id: threadId).contains { !$0.email.isSeen } }
        return unread ? try markThreadsRead(ids: [threadId]) : try markThreadsUnread(ids: [threadId])
    }

    /// Stars the thread when nothing in it is starred, else unstars it.
    @discardableResult public func toggleStarStatus(threadId: String) throws(ThreadListError) -> EventID {
        let starred = try wrap { try views.threadEmails(id: threadId).contains { $0.email.isFlagged } }
        return starred ? try unstarThreads(ids: [threadId]) : try starThreads(ids: [threadId])
    }

    // MARK: - Batches

    @discardableResult public func archiveThreads(ids: [String]) throws(ThreadListError) -> EventID { try act(.archive, ids) }
    @discardableResult public func deleteThreads(ids: [String]) throws(ThreadListError) -> EventID { try act(.delete, ids) }
    @discardableResult public func markThreadsRead(ids: [String]) throws(ThreadListError) -> EventID { try act(.read, ids) }
    @discardableResult public func markThreadsUnread(ids: [String]) throws(ThreadListError) -> EventID { try act(.unread, ids) }
    @discardableResult public func starThreads(ids: [String]) throws(ThreadListError) -> EventID { try act(.star, ids) }
    @discardableResult public func unstarThreads(ids: [String]) throws(ThreadListError) -> EventID { try act(.unstar, ids) }
    @discardableResult public func moveThreads(ids: [String], toFolderId folder: String) throws(ThreadListError) -> EventID {
        try act(.move, ids, destination: folder)
    }

    /// The most threads one action takes. An action is one event folded at once, and what its fold holds
    /// (the threads' copies read, their rows recomputed, the views' changes) grows with it: a 1,000-thread
    /// archive of the 100K store peaks at 113-115 MB, 14,423 threads in one action had peaked at 442 MB.
    /// `batch` splits a larger selection into several actions.
    public static let maxThreadsPerAction = 1_000
    /// The most email copies one action of several threads takes (a single thread is never split, whatever
    /// its size).
    public static let maxCopiesPerAction = 10_000

    /// Takes an action of `kind` on `ids`: resolves the targets, appends the action event, folds the views.
    /// More than `maxThreadsPerAction` threads, or several threads of more than `maxCopiesPerAction` copies,
    /// are refused (`ActionError.tooLarge`); so is an action with nothing to do on any of them.
    func act(_ kind: ActionKind, _ ids: [String], destination explicit: String? = nil, causation: EventID? = nil) throws(ThreadListError) -> EventID {
        try actOn(kind, ids, destination: explicit, causation: causation).id
    }

    /// `act`, telling apart the threads the action has nothing to do on (archive of a thread with no Inbox copy,
    /// delete of one in the Trash...): those are left out of the action (its `threadIDs` names the threads it
    /// changes) and returned, in the order given. When no thread has anything to do, `ActionError.nothingToDo`.
    func actOn(_ kind: ActionKind, _ ids: [String], destination explicit: String? = nil,
               causation: EventID? = nil) throws(ThreadListError) -> (id: EventID, idle: [String]) {
        try wrap {
            guard ids.count <= Self.maxThreadsPerAction else { throw ActionError.tooLarge(threads: ids.count, copies: 0) }
            var emails: [(threadID: String, id: String, email: EmailCopyState)] = []
            for (id, members) in zip(ids, try views.threadCopyStates(ids: ids)) {
                guard !members.isEmpty else { throw ThreadListError.threadNotFound(id: id) }
                emails += members.map { (id, $0.id, $0.state) }
            }
            if ids.count > 1 && emails.count > Self.maxCopiesPerAction {
                throw ActionError.tooLarge(threads: ids.count, copies: emails.count)
            }
            let accounts = Set(emails.map(\.email.account)).sorted()
            guard accounts.count == 1, let account = accounts.first else { throw ActionError.mixedAccounts(accounts) }
            let folders = try views.folders(account: account)
            let roleOf = Dictionary(folders.map { ($0.path, $0.role) }, uniquingKeysWith: { a, _ in a })
            let destination = try destinationFolder(kind, explicit: explicit, account: account, folders: folders)
            let chosen = emails.filter { e in
                switch kind {
                case .archive: roleOf[e.email.folder] == .inbox
                case .delete: e.email.folder != destination
                case .move: e.email.folder != destination && ![.sent, .drafts].contains(roleOf[e.email.folder] ?? .custom)
                case .read: !e.email.isSeen
                case .unread: e.email.isSeen
                case .star: !e.email.isFlagged
                case .unstar: e.email.isFlagged
                }
            }
            guard !chosen.isEmpty else { throw ActionError.nothingToDo(ManageThreadActionsUseCase.nothing(kind)) }
            let busy = Set(chosen.map(\.threadID))
            let payload = ThreadAction(threadIDs: ids.filter(busy.contains), targets: chosen.map { ActionTarget(emailID: $0.id, folder: $0.email.folder, flags: $0.email.flags) },
                                       destination: destination)
            let id = EventID.generate()
            var events = [NewEvent(id: id, event: kind.event(payload), account: account, stream: .action(id),
                                   causationID: causation, actor: .user)]
            events += try completedLocally(id, payload.targets, account: account)
            try store.commit(events)
            return (id, ids.filter { !busy.contains($0) })
        }
    }

    /// Mail of an account with no server (an import) has nothing to write back: its action is complete at once (an
    /// `ActionApplied` for every target), never left pending. Nothing for an account with a server. The mail of an
    /// account removed since (its name's stream's newest event in the log is its `AccountRemoved`) has a server no
    /// action reaches: `ActionError.accountRemoved` (it had been taken for an import's: done here, never on the server).
    /// An account the views do not list yet but the log has added again (views behind it) is an account with a server.
    func completedLocally(_ id: EventID, _ targets: [ActionTarget], account: String) throws -> [NewEvent] {
        guard try views.account(named: account) == nil else { return [] }
        let stream = StreamName.account(account)
        if try store.log.streamVersion(stream) > 0 {
            // A newest event that cannot be read is taken as a removal, as before the log was asked.
            let newest = try store.log.newestTypes(of: [stream.rawValue]).first ?? nil
            if newest == nil || newest == .accountRemoved { throw ActionError.accountRemoved(account) }
            return []
        }
        return [NewEvent(event: .actionApplied(ActionApplied(actionID: id, emailIDs: targets.map(\.emailID))),
                         account: account, stream: .action(id), causationID: id, actor: .system)]
    }

    /// Where a moving action puts the copies: the Archive-role folder (Gmail: the `\All` folder, All Mail
    /// whatever its name, which removes the Inbox label), the Trash, or the folder asked for.
    func destinationFolder(_ kind: ActionKind, explicit: String?, account: String, folders: [FolderEntry]) throws -> String? {
        switch kind {
        case .archive:
            if try views.account(named: account)?.settings.provider == ProviderRegistry.gmail.id {
                guard let all = folders.first(where: { $0.role == .all }) else { throw ActionError.noAllMailFolder }
                return all.path
            }
            if let a = folders.first(where: { $0.role == .archive }) { return a.path }
            throw ActionError.noArchiveFolder
        case .delete:
            guard let t = folders.first(where: { $0.role == .trash }) else { throw ActionError.noTrashFolder }
            return t.path
        case .move:
            // The folder's own name, byte for byte: one typed in another Unicode form matches it but is another key.
            // `INBOX` in any case names the Inbox (RFC 3501 section 5.1), as `project --folder` and `sync --folder` take it.
            guard let explicit,
                  let folder = folders.first(where: { $0.path == explicit })
                      ?? (explicit.uppercased() == "INBOX" ? folders.first(where: { $0.path.uppercased() == "INBOX" }) : nil) else {
                throw ThreadListError.folderNotFound(id: explicit ?? "")
            }
            return folder.path
        default:
            return nil
        }
    }

    static func nothing(_ kind: ActionKind) -> String {
        switch kind {
        case .archive: "no message of these threads is in the Inbox"
        case .delete: "these threads are in the Trash already"
        case .move: "these threads are in that folder already"
        case .read: "these threads are read already"
        case .unread: "these threads are unread already"
        case .star: "these threads are starred already"
        case .unstar: "these threads are not starred"
        }
    }

    /// Runs `body`, turning every error into `ThreadListError` (the spec's error type).
    func wrap<T>(_ body: () throws -> T) throws(ThreadListError) -> T {
        do { return try body() } catch let e as ThreadListError { throw e } catch { throw .actionFailed(underlying: error) }
    }
}
