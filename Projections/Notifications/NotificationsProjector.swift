import EventModel

/// The notifications view: the preferences (folded from `NotificationPreferenceChanged`), every decision
/// (`NotificationDecided`) newest first, the posted ones not yet delivered, the delivered ones still
/// showing per thread, and the withdrawals owed: a delivered notification whose thread is read, archived,
/// deleted or muted (here, on another device or by a sync) is owed a withdrawal until
/// `NotificationWithdrawn` records it. Decisions themselves are made by `NotificationDecider` and recorded
/// as events, so replay never re-decides.
package final class NotificationsProjector: Projector {
    package static let name = ViewName.notifications
    /// 2: `messages` (from `NotificationDecided` version 2's `messageKey`), and records holding that version.
    /// 3: `posted` (the recent posted decisions the flood caps across syncs read) and the counts of VIP adds and mutes
    /// left out at their caps (`meta`).
    package static let schemaVersion: UInt32 = 3
    /// What `apply` folds.
    package static let handledEvents = EventTypeSet([.notificationPreferenceChanged, .notificationDecided, .notificationDelivered, .notificationWithdrawn, .threadMarkedRead, .threadArchived, .threadDeleted, .threadMoved, .flagsChanged, .emailExpunged])
    static let settingsTable = Table<NotificationSettings>(.notifications, "settings")
    static let decisionsTable = Table<NotificationRecord>(.notifications, "decisions")
    static let recentTable = Table<String>(.notifications, "recent")
    static let pendingTable = Table<String>(.notifications, "pending")
    static let showingTable = Table<[String]>(.notifications, "showing")
    static let withdrawTable = Table<PendingWithdrawal>(.notifications, "withdraw")
    static let undeliveredTable = Table<[String]>(.notifications, "undelivered")
    static let metaTable = Table<UInt64>(.notifications, "meta")
    /// Per message (account, message key) the email of its standing decision: its posted one, else its first.
    /// Kept when the copies are gone (moved away and back), so a posted message is never posted again and a copy
    /// outside the Inbox of a message decided before is not decided again.
    static let messagesTable = Table<String>(.notifications, "messages")
    /// The posted decisions, newest first (key: `recentKey` of their count), the last `postedCapacity` of them: what the
    /// flood caps across syncs read (`NotificationsReader.recentlyPosted`).
    static let postedTable = Table<String>(.notifications, "posted")

    /// The most decisions listed (older ones leave the list; their records stay for dedup).
    package static let recentCapacity = 10_000
    /// The most posted decisions `posted` keeps (older ones leave it; their records stay).
    package static let postedCapacity = 1_000
    /// The most VIPs kept. `NotificationCoordinator.addVIP` refuses an add past it; an add beyond it in a log written
    /// otherwise (by an older build, or racing past a check) is left out, the first ones kept, and counted (`vipsLeftOutKey`).
    package static let maxVIPs = 1_000
    /// The most muted threads kept, the same way (`NotificationCoordinator.mute` refuses past it; counted in `mutesLeftOutKey`).
    package static let maxMutedThreads = 10_000

    static let settingsKey = Key("settings").bytes
    static let headKey = Key("head").bytes
    static let tailKey = Key("tail").bytes
    static let postedHeadKey = Key("postedHead").bytes
    static let postedTailKey = Key("postedTail").bytes
    /// How many VIP adds, and how many mutes, the fold left out at the cap since the last reset.
    static let vipsLeftOutKey = Key("vipsLeftOut").bytes
    static let mutesLeftOutKey = Key("mutesLeftOut").bytes
    /// The key of the log sequence of `account`'s last decision (a watch resumes deciding after it).
    static func lastDecidedKey(_ account: String) -> [UInt8] { Key("last", account).bytes }

    let settings: ViewTable<NotificationSettings>
    let decisions: ViewTable<NotificationRecord>
    let recent: ViewTable<String>
    let pending: ViewTable<String>
    let showing: ViewTable<[String]>
    let withdraw: ViewTable<PendingWithdrawal>
    let undelivered: ViewTable<[String]>
    let meta: ViewTable<UInt64>
    let messages: ViewTable<String>
    let posted: ViewTable<String>

    package init(context: FoldContext) {
        settings = context.table(Self.settingsTable)
        decisions = context.table(Self.decisionsTable)
        recent = context.table(Self.recentTable)
        pending = context.table(Self.pendingTable)
        showing = context.table(Self.showingTable)
        withdraw = context.table(Self.withdrawTable)
        undelivered = context.table(Self.undeliveredTable)
        meta = context.table(Self.metaTable)
        messages = context.table(Self.messagesTable)
        posted = context.table(Self.postedTable)
    }

    /// The key of a message in `messages`.
    static func messageKey(account: String, _ messageKey: String) -> [UInt8] { Key(account, messageKey).bytes }

    /// The key of the `n`th decision in `recent` (newest sorts first).
    static func recentKey(_ n: UInt64) -> [UInt8] { var k = Key(); k.uint64(UInt64.max - n); return k.bytes }
    /// The key of a posted decision waiting for delivery, in decision order.
    static func pendingKey(_ n: UInt64) -> [UInt8] { var k = Key(); k.uint64(n); return k.bytes }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        switch decoded {
        case .notificationPreferenceChanged(let p):
            try applyPreference(p, account: event.pointee.envelope.account)
        case .notificationDecided(let p):
            meta.set(Self.lastDecidedKey(event.pointee.envelope.account), event.pointee.envelope.sequence)
            try applyDecision(p, account: event.pointee.envelope.account)
        case .notificationDelivered(let p):
            guard var record = try decisions.get(Key(p.emailID).bytes), record.state == .decided else { return }
            record.state = .delivered
            decisions.set(Key(p.emailID).bytes, record)
            pending.set(Self.pendingKey(record.position), nil)
            try forget(p.emailID, thread: record.decision.threadID)
            try showing.modify(Key(record.decision.threadID).bytes) { list in
                var l = list ?? []
                if !l.contains(p.emailID), l.count < ViewBounds.maxCopiesListed { l.append(p.emailID) }
                list = l
            }
        case .notificationWithdrawn(let p):
            for id in p.emailIDs {
                guard var record = try decisions.get(Key(id).bytes) else { continue }
                if record.state == .decided {
                    pending.set(Self.pendingKey(record.position), nil)
                    try forget(id, thread: record.decision.threadID)
                }
                record.state = .withdrawn
                decisions.set(Key(id).bytes, record)
            }
            let tk = Key(p.threadID).bytes
            let left = (try showing.get(tk) ?? []).filter { !p.emailIDs.contains($0) }
            showing.set(tk, left.isEmpty ? nil : left)
            if let owed = try withdraw.get(tk) {
                let rest = owed.emailIDs.filter { !p.emailIDs.contains($0) }
                withdraw.set(tk, rest.isEmpty ? nil : PendingWithdrawal(emailIDs: rest, reason: owed.reason))
            }
        case .threadMarkedRead(let p): try owe(p.threadIDs, reason: "read")
        case .threadArchived(let p): try owe(p.threadIDs, reason: "archived")
        case .threadDeleted(let p): try owe(p.threadIDs, reason: "deleted")
        case .threadMoved(let p): try owe(p.threadIDs, reason: "moved")
        case .flagsChanged(let p):
            guard p.added.contains("\\Seen"), let record = try decisions.get(Key(p.emailID).bytes) else { return }
            try owe([record.decision.threadID], reason: "read")
        case .emailExpunged(let p):
            guard let record = try decisions.get(Key(p.emailID).bytes) else { return }
            try owe([record.decision.threadID], reason: "deleted")
        default:
            break
        }
    }

    func applyPreference(_ p: NotificationPreferenceChanged, account: String) throws {
        var s = try settings.get(Self.settingsKey) ?? NotificationSettings()
        let value = ViewBounds.id(p.value)
        switch p.change {
        case .accountEnabled: s.disabledAccounts.remove(account)
        case .accountDisabled: s.disabledAccounts.insert(account)
        case .categoryOn: if let c = AICategory(name: value) { s.disabledCategories.remove(c) }
        case .categoryOff: if let c = AICategory(name: value) { s.disabledCategories.insert(c) }
        case .quietHoursSet: s.quietHours = QuietHours(start: p.quietStart, end: p.quietEnd)
        case .quietHoursCleared: s.quietHours = nil
        case .vipAdded: try insert(value.lowercased(), into: &s.vips, cap: Self.maxVIPs, leftOut: Self.vipsLeftOutKey)
        case .vipRemoved: s.vips.remove(value.lowercased())
        case .threadMuted:
            try insert(value, into: &s.mutedThreads, cap: Self.maxMutedThreads, leftOut: Self.mutesLeftOutKey)
            try owe([value], reason: "muted")
        case .threadUnmuted: s.mutedThreads.remove(value)
        case .reset:
            s = NotificationSettings()
            meta.set(Self.vipsLeftOutKey, nil)
            meta.set(Self.mutesLeftOutKey, nil)
        }
        settings.set(Self.settingsKey, s == NotificationSettings() ? nil : s)
    }

    /// Adds `value` to `set` unless it holds `cap` already: then it is left out (the first ones stay) and counted at
    /// `leftOut` in `meta`, so `vip list` and `notifications settings` can say so.
    func insert(_ value: String, into set: inout Set<String>, cap: Int, leftOut: [UInt8]) throws {
        if set.contains(value) { return }
        if set.count < cap {
            set.insert(value)
        } else {
            meta.set(leftOut, (try meta.get(leftOut) ?? 0) &+ 1)
        }
    }

    func applyDecision(_ p: NotificationDecided, account: String) throws {
        let ek = Key(p.emailID).bytes
        if try decisions.get(ek) != nil { return }
        let head = try meta.get(Self.headKey) ?? 0, tail = try meta.get(Self.tailKey) ?? 0
        decisions.set(ek, NotificationRecord(decision: p, account: account, position: head))
        if !p.messageKey.isEmpty {
            let mk = Self.messageKey(account: account, p.messageKey)
            if let standing = try messages.get(mk) {
                // A posted decision stands for the message from then on; another one never replaces it.
                if p.outcome == .posted, try decisions.get(Key(standing).bytes)?.decision.outcome != .posted { messages.set(mk, p.emailID) }
            } else {
                messages.set(mk, p.emailID)
            }
        }
        recent.set(Self.recentKey(head), p.emailID)
        if p.outcome == .posted {
            try notePosted(p.emailID)
            pending.set(Self.pendingKey(head), p.emailID)
            try undelivered.modify(Key(p.threadID).bytes) { list in
                var l = list ?? []
                if l.count < ViewBounds.maxCopiesListed { l.append(p.emailID) }
                list = l
            }
        }
        var newTail = tail
        if head + 1 - tail > UInt64(Self.recentCapacity) {
            recent.set(Self.recentKey(tail), nil)
            newTail = tail + 1
        }
        meta.set(Self.headKey, head + 1)
        meta.set(Self.tailKey, newTail)
    }

    /// Adds a posted decision to `posted`, dropping the oldest past `postedCapacity`.
    func notePosted(_ emailID: String) throws {
        let head = try meta.get(Self.postedHeadKey) ?? 0, tail = try meta.get(Self.postedTailKey) ?? 0
        posted.set(Self.recentKey(head), emailID)
        if head + 1 - tail > UInt64(Self.postedCapacity) {
            posted.set(Self.recentKey(tail), nil)
            meta.set(Self.postedTailKey, tail + 1)
        }
        meta.set(Self.postedHeadKey, head + 1)
    }

    /// Drops `emailID` from its thread's posted-but-undelivered list.
    func forget(_ emailID: String, thread: String) throws {
        let tk = Key(thread).bytes
        let left = (try undelivered.get(tk) ?? []).filter { $0 != emailID }
        undelivered.set(tk, left.isEmpty ? nil : left)
    }

    /// Records that the showing notifications of `threadIDs` are owed a withdrawal; posted ones not yet
    /// delivered are dropped (withdrawn before they were shown: no banner for a thread already read).
    func owe(_ threadIDs: [String], reason: String) throws {
        for t in threadIDs {
            let tk = Key(t).bytes
            for id in try undelivered.get(tk) ?? [] {
                guard var record = try decisions.get(Key(id).bytes), record.state == .decided else { continue }
                pending.set(Self.pendingKey(record.position), nil)
                record.state = .withdrawn
                decisions.set(Key(id).bytes, record)
            }
            undelivered.set(tk, nil)
            guard let shown = try showing.get(tk), !shown.isEmpty else { continue }
            withdraw.set(tk, PendingWithdrawal(emailIDs: shown, reason: reason))
        }
    }
}
