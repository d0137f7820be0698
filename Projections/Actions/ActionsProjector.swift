import EventModel

/// The actions view: every thread action with its server outcome so far; the queue of pending actions per
/// account (what write-back works through, oldest first); the actions that failed or were refused (for
/// `mailstore actions --failed` and `retry`); and indexes from threads and emails to the actions that
/// touched them (for `mailstore history`).
package final class ActionsProjector: Projector {
    package static let name = ViewName.actions
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`). 3: a refused star's or
    /// unstar's reason in the spec's words, the server's after it (`ActionKind.refusalReason`), recorded so or not.
    package static let schemaVersion: UInt32 = 3
    /// What `apply` folds.
    package static let handledEvents = EventTypeSet([.threadArchived, .threadDeleted, .threadMarkedRead, .threadMarkedUnread, .threadStarred, .threadUnstarred, .threadMoved, .actionApplied, .actionRejected, .actionFailed, .actionUndone])
    static let itemsTable = Table<ActionRecord>(.actions, "items")
    static let pendingTable = Table<String>(.actions, "pending")
    static let failedTable = Table<String>(.actions, "failed")
    static let byThreadTable = Table<Present>(.actions, "byThread")
    static let byEmailTable = Table<Present>(.actions, "byEmail")

    let items: ViewTable<ActionRecord>
    /// Key(account) + sequence -> action id.
    let pending: ViewTable<String>
    /// Key(account) + sequence -> action id.
    let failed: ViewTable<String>
    /// Key(thread id, action id) -> present.
    let byThread: ViewTable<Present>
    /// Key(email id, action id) -> present.
    let byEmail: ViewTable<Present>

    package init(context: FoldContext) {
        items = context.table(Self.itemsTable)
        pending = context.table(Self.pendingTable)
        failed = context.table(Self.failedTable)
        byThread = context.table(Self.byThreadTable)
        byEmail = context.table(Self.byEmailTable)
    }


    /// The key of an action in the pending and failed queues.
    package static func queueKey(account: String, sequence: UInt64) -> [UInt8] {
        var k = Key(account)
        k.uint64(sequence)
        return k.bytes
    }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        let env = event.pointee.envelope
        if let kind = ActionKind(decoded), let p = decoded.threadAction {
            let record = ActionRecord(id: env.id, account: env.account, kind: kind, sequence: env.sequence, occurredAt: env.occurredAt,
                                      threadIDs: p.threadIDs, targets: p.targets, destination: p.destination, causation: env.causationID)
            items.set(Key(env.id.description).bytes, record)
            pending.set(ActionsProjector.queueKey(account: env.account, sequence: env.sequence), env.id.description)
            let id = env.id.description
            for t in p.threadIDs { byThread.set(Key(t, id).bytes, Present()) }
            for t in p.targets { byEmail.set(Key(t.emailID, id).bytes, Present()) }
            // A retry supersedes the failed action it retries.
            if let cause = env.causationID { try update(cause) { $0.lastError = nil; return .resolved } }
            return
        }
        switch decoded {
        case .actionApplied(let p):
            let ids = Set(p.emailIDs)
            try update(p.actionID) { r in
                r.pending.removeAll { ids.contains($0) }
                let had = Set(r.applied)
                r.applied += p.emailIDs.filter { !had.contains($0) }
                return nil
            }
        case .actionRejected(let p):
            let ids = Set(p.emailIDs)
            try update(p.actionID) { r in
                r.pending.removeAll { ids.contains($0) }
                let had = Set(r.rejected)
                r.rejected += p.emailIDs.filter { !had.contains($0) }
                // Logs written before the write-back recorded a refused star in the spec's words show them too.
                r.lastError = r.kind.refusalReason(p.reason)
                return .failed
            }
        case .actionFailed(let p):
            try update(p.actionID) { r in
                r.attempts = p.attempt
                r.retryAt = p.retryAt
                r.lastError = p.reason
                return .failed
            }
        case .actionUndone(let p):
            try update(p.actionID) { r in
                r.undone = true
                r.pending = []
                return .resolved
            }
        default:
            break
        }
    }

    /// Where an action stands in the failed list after an outcome.
    enum Listing { case failed, resolved }

    private func update(_ id: EventID, _ change: (inout ActionRecord) -> Listing?) throws {
        let key = Key(id.description).bytes
        guard var r = try items.get(key) else { return }
        let listing = change(&r)
        items.set(key, r)
        let q = ActionsProjector.queueKey(account: r.account, sequence: r.sequence)
        if r.pending.isEmpty { pending.set(q, nil) }
        switch listing {
        case .failed: failed.set(q, r.id.description)
        case .resolved: failed.set(q, nil)
        case nil: if r.pending.isEmpty && r.rejected.isEmpty { failed.set(q, nil) }
        }
    }
}
