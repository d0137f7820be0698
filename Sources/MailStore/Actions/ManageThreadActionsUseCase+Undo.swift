import EventLog
import EventModel
import Projections
import Views

extension ManageThreadActionsUseCase {
    /// Undoes an action at any time the inverse exists (the spec's 5-second window is the client's policy).
    ///
    /// Appends `ActionUndone` (causation = the action). The part not yet written back is dropped from the
    /// queue and reverted in the views (`ActionReverted`); for the part the server has, the inverse is taken
    /// as new actions (unread for read, unstar for star, a move back for moves), which the views show at once
    /// and write-back sends to the server. Returns the id of the `ActionUndone` event.
    ///
    /// Holds the account's write-back lock meanwhile (`SyncEngine.writeBackLockKind`, waiting up to
    /// `SyncEngine.writeBackLockWaitSeconds`): an action a write-back is sending at that moment is undone once its
    /// outcome is recorded, so the part the server took gets its inverse rather than being reverted only here.
    @discardableResult
    public func undo(actionId: String) throws(ThreadListError) -> EventID {
        try wrap {
            guard let account = try views.action(id: actionId)?.account else { throw ActionError.actionNotFound(actionId) }
            let lock = try AccountLock(store: store.directory, kind: SyncEngine.writeBackLockKind, account: account,
                                       waitSeconds: SyncEngine.writeBackLockWaitSeconds)
            defer { lock.release() }
            _ = try store.latestViews()
            guard let r = try views.action(id: actionId) else { throw ActionError.actionNotFound(actionId) }
            guard !r.undone else { throw ActionError.alreadyUndone(actionId) }
            let undoID = EventID.generate()
            var events: [NewEvent] = []
            let pending = Set(r.pending), applied = Set(r.applied)
            let notSent = r.targets.filter { pending.contains($0.emailID) }
            // A later action on the same mail still waiting for the server: reverting this one would restore what it
            // saw over what the later one did (archive, delete, undo of the archive, undo of the delete: the views
            // showed the mail in the Archive for good, the server in the Inbox). The newest is undone first.
            // (Only one changing what this one changed: the folder for a move, archive or delete; the same flag for a
            // flag action. A star after a move is kept by the move's undo, which restores the folder only.)
            func sameKind(_ k: ActionKind) -> Bool { r.kind.flag == nil ? k.flag == nil : k.flag?.name == r.kind.flag?.name }
            if !pending.isEmpty, let later = try views.pendingActions(account: r.account).first(where: {
                $0.sequence > r.sequence && !$0.undone && sameKind($0.kind) && !pending.isDisjoint(with: $0.pending)
            }) {
                throw ActionError.laterActionFirst(action: r.id.description, later: later.id.description)
            }
            if !notSent.isEmpty {
                events.append(NewEvent(event: .actionReverted(ActionReverted(actionID: r.id, targets: try restored(notSent, r),
                                                                             reason: "undone by the user")),
                                       account: r.account, stream: .action(r.id), causationID: undoID, actor: .user))
            }
            let inverse = try inverse(of: r, applied: r.targets.filter { applied.contains($0.emailID) }, causation: undoID)
            // Nothing of it is where the action left it any more (deleted or moved since, on the server or here): an
            // `ActionUndone` saying an inverse is queued, with none, was an undo that did nothing, exit 0.
            // (One with refused parts is still undone: that takes it off the failed list.)
            if notSent.isEmpty, inverse.isEmpty, !applied.isEmpty, r.rejected.isEmpty { throw ActionError.nothingToDo("the mail of action \(r.id) is no longer where it put it (deleted or moved since, on the server or by another action): nothing was undone; find it with `mailstore search` and act on it where it is") }
            // First in the batch, saying whether an inverse was queued (none when the applied mail is gone).
            events.insert(NewEvent(id: undoID, event: .actionUndone(ActionUndone(actionID: r.id, serverInverseQueued: !inverse.isEmpty)),
                                   account: r.account, stream: .action(r.id), causationID: r.id, actor: .user), at: 0)
            events += inverse
            try store.commit(events)
            return undoID
        }
    }

    /// Takes the action again for what the server refused (new actions, causation = the old one), or lets a
    /// temporarily failed action be written back at once. Returns the new actions' ids (empty when the action
    /// only had to be sent again): one, unless the threads are more than one action takes
    /// (`maxThreadsPerAction`, `maxCopiesPerAction`: an action recorded before those bounds, or threads grown
    /// since), cut as `batch` cuts them.
    @discardableResult
    public func retry(actionId: String) throws(ThreadListError) -> [EventID] {
        let r = try wrap { () throws -> ActionRecord in
            guard let r = try views.action(id: actionId) else { throw ActionError.actionNotFound(actionId) }
            guard !r.undone else { throw ActionError.alreadyUndone(actionId) }
            guard !r.rejected.isEmpty || (r.attempts > 0 && !r.pending.isEmpty) else { throw ActionError.nothingToRetry(actionId) }
            return r
        }
        guard !r.rejected.isEmpty else { return [] }
        let rejected = Set(r.rejected)
        let threads = try wrap { () throws -> [(thread: String, copies: Int)] in
            var all: [(thread: String, copies: Int)] = [], refused: [(thread: String, copies: Int)] = []
            for (index, t) in r.threadIDs.enumerated() {
                if index % 256 == 255 { releaseMappedPages() }
                let copies = try views.threadEmails(id: t)
                all.append((t, copies.count))
                if copies.contains(where: { rejected.contains($0.id) }) { refused.append((t, copies.count)) }
            }
            return refused.isEmpty ? all : refused
        }
        var ids: [EventID] = []
        for part in ManageThreadActionsUseCase.actions(threads) {
            releaseMappedPages()
            do {
                ids.append(try act(r.kind, part, destination: r.destination, causation: r.id))
            } catch .folderNotFound(let folder) where r.kind == .move {
                // The move's folder is gone (deleted or renamed on the server): say what can be done instead of "no folder".
                throw .actionFailed(underlying: ActionError.destinationGone(action: actionId, folder: folder))
            }
        }
        return ids
    }

    /// The state to put copies back to: their folder before the action, their current flags with the
    /// action's flag as it was.
    func restored(_ targets: [ActionTarget], _ r: ActionRecord) throws -> [ActionTarget] {
        let states = try views.emailCopyStates(ids: targets.map(\.emailID))
        return zip(targets, states).map { t, state in
            var flags = Set(state?.flags ?? t.flags)
            if let (flag, _) = r.kind.flag {
                if t.flags.contains(flag) { flags.insert(flag) } else { flags.remove(flag) }
            }
            return ActionTarget(emailID: t.emailID, folder: t.folder, flags: flags.sorted())
        }
    }

    /// The inverse actions of the part of `r` the server has: flags toggled back on the copies, or the
    /// copies moved back to each original folder (found again by Message-ID when a sync has replaced them).
    func inverse(of r: ActionRecord, applied: [ActionTarget], causation: EventID) throws -> [NewEvent] {
        guard !applied.isEmpty else { return [] }
        var groups: [(destination: String?, targets: [ActionTarget])] = []
        // Each copy's folder and flags now, read at once.
        let states = try views.emailCopyStates(ids: applied.map(\.emailID))
        if r.kind.flag != nil {
            let current = zip(applied, states).compactMap { t, state in
                state.map { ActionTarget(emailID: t.emailID, folder: $0.folder, flags: $0.flags) }
            }
            groups.append((nil, current))
        } else {
            for folder in Array(Set(applied.map(\.folder))).sorted() {
                var current: [ActionTarget] = []
                for (t, state) in zip(applied, states) where t.folder == folder {
                    if let e = state {
                        current.append(ActionTarget(emailID: t.emailID, folder: e.folder, flags: e.flags))
                    } else if let messageID = try store.email(id: t.emailID)?.payload.messageID, let destination = r.destination {
                        for copy in try views.copies(account: r.account, messageID: messageID) where copy.folder == destination {
                            let flags = try views.emailRecord(id: copy.emailID)?.flags ?? []
                            current.append(ActionTarget(emailID: copy.emailID, folder: destination, flags: flags))
                        }
                    }
                }
                groups.append((folder, current))
            }
        }
        var events: [NewEvent] = []
        for g in groups where !g.targets.isEmpty {
            let id = EventID.generate()
            let kind: ActionKind = r.kind.flag != nil ? r.kind.inverse : .move
            events.append(NewEvent(id: id, event: kind.event(ThreadAction(threadIDs: r.threadIDs, targets: g.targets, destination: g.destination)),
                                   account: r.account, stream: .action(id), causationID: causation, actor: .user))
            // As the action itself was, its inverse is complete at once where there is no server to write it to.
            events += try completedLocally(id, g.targets, account: r.account)
        }
        return events
    }
}
