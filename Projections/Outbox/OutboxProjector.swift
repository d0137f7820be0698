import EventModel

/// The outbox view: emails whose send state is queued, sending or failed (a virtual folder, not a
/// folder type), newest first, and per account the queued + failed count (the Outbox badge).
package final class OutboxProjector: Projector {
    package static let name = ViewName.outbox
    /// 2: bounded keys (long parts hashed) and bounded values (`Key`, `ViewBounds`). 3: a failed item's next
    /// retry time (`OutboxItem.retryAt`). 4: each account's pause for its server (`OutboxPause`, `pauses`).
    package static let schemaVersion: UInt32 = 4
    /// What `apply` folds.
    package static let handledEvents = EventTypeSet([.messageQueued, .sendStarted, .messageSent, .sendFailed, .sendUndone, .sendCancelled, .draftSaved, .draftDeleted])
    static let itemsTable = Table<OutboxItem>(.outbox, "items")
    static let indexTable = Table<Present>(.outbox, "index")
    static let countsTable = Table<Int>(.outbox, "counts")
    /// Per account, its pause for the server (`OutboxPause`): set by the outcome of an attempt the server did not serve,
    /// cleared by one it did (a message sent, a failure it answered).
    static let pausesTable = Table<OutboxPause>(.outbox, "pauses")

    let items: ViewTable<OutboxItem>
    let index: ViewTable<Present>
    let counts: ViewTable<Int>
    let pauses: ViewTable<OutboxPause>

    package init(context: FoldContext) {
        items = context.table(Self.itemsTable)
        index = context.table(Self.indexTable)
        counts = context.table(Self.countsTable)
        pauses = context.table(Self.pausesTable)
    }


    /// The index key of an outbox row.
    package static func indexKey(account: String, updated: Timestamp, draftID: String) -> [UInt8] {
        var k = Key(account)
        k.descending(updated.microseconds)
        k.string(draftID)
        return k.bytes
    }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        let account = event.pointee.envelope.account
        let at = event.pointee.envelope.occurredAt
        func update(_ id: String, _ change: (inout OutboxItem) -> Void) throws {
            let key = Key(id).bytes
            let old = try items.get(key)
            var item = old ?? OutboxItem(draftID: id, account: account)
            change(&item)
            // A retry time belongs to the failure it follows: any other state change ends it.
            if item.state != .failed { item.retryAt = nil }
            item.updatedAt = at
            try reindex(old: old, new: item)
            items.set(key, item)
        }
        switch decoded {
        case .draftSaved(let p):
            try update(p.draftID) {
                $0.subject = p.subject
                $0.to = p.to
            }
        case .messageQueued(let p):
            try update(p.draftID) {
                $0.state = .queued
                $0.dueAt = p.dueAt
                $0.reason = nil
            }
            // Queued again by the system: no connection to the server could be made; the others wait until it is due.
            if event.pointee.envelope.actor == .system {
                pauses.set(Key(account).bytes, OutboxPause(draftID: p.draftID, until: p.dueAt,
                                                           reason: "no connection to the server could be made", at: at))
            }
        case .sendStarted(let p):
            try update(p.draftID) {
                $0.state = .sending
                $0.attempts = max($0.attempts, Int(p.attempt))
            }
        case .messageSent(let p):
            try update(p.draftID) { $0.state = .sent }
            pauses.set(Key(account).bytes, nil)
        case .sendFailed(let p):
            try update(p.draftID) {
                $0.state = .failed
                $0.reason = p.reason
                $0.retryAt = p.permanent ? nil : p.retryAt
            }
            // An attempt's outcome (actor sync; not a process that ended mid-attempt, nor a send lock held elsewhere, which
            // say nothing of the server): the server did not serve it (the account pauses until its retry time), or did.
            if event.pointee.envelope.actor == .sync {
                if p.serverFailure, !p.permanent, let retryAt = p.retryAt {
                    pauses.set(Key(account).bytes, OutboxPause(draftID: p.draftID, until: retryAt, reason: p.reason, at: at))
                } else {
                    pauses.set(Key(account).bytes, nil)
                }
            }
        case .sendUndone(let p):
            try update(p.draftID) { $0.state = .draft }
            try endPause(account: account, for: p.draftID)
        case .sendCancelled(let p):
            try update(p.draftID) { $0.state = .draft }
            try endPause(account: account, for: p.draftID)
        case .draftDeleted(let p):
            let key = Key(p.draftID).bytes
            if let old = try items.get(key) {
                try reindex(old: old, new: nil)
                items.set(key, nil)
            }
            try endPause(account: account, for: p.draftID)
        default:
            break
        }
    }

    /// Ends `account`'s pause when `draftID` is the message it waits on, taken out of the outbox (undone, cancelled,
    /// deleted): the pause named it as tried first, and the account's other messages waited for a message no longer
    /// going (an attempt of theirs the server does not serve pauses the account again).
    private func endPause(account: String, for draftID: String) throws {
        let key = Key(account).bytes
        if try pauses.get(key)?.draftID == draftID { pauses.set(key, nil) }
    }

    private func reindex(old: OutboxItem?, new: OutboxItem?) throws {
        if let o = old, o.state.inOutbox { index.set(OutboxProjector.indexKey(account: o.account, updated: o.updatedAt, draftID: o.draftID), nil) }
        if let n = new, n.state.inOutbox { index.set(OutboxProjector.indexKey(account: n.account, updated: n.updatedAt, draftID: n.draftID), Present()) }
        let was = old.map { $0.state == .queued || $0.state == .failed } ?? false
        let isNow = new.map { $0.state == .queued || $0.state == .failed } ?? false
        if was != isNow, let account = (new ?? old)?.account {
            let k = Key(account).bytes
            let v = (try counts.get(k) ?? 0) + (isNow ? 1 : -1)
            counts.set(k, v == 0 ? nil : v)
        }
    }
}
