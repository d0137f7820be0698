import EventModel

/// Reads the notifications view.
package struct NotificationsReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// The preferences (the defaults when none was changed).
    package func settings() throws -> NotificationSettings {
        try snapshot.get(NotificationsProjector.settingsTable, NotificationsProjector.settingsKey) ?? NotificationSettings()
    }

    /// The decision for `emailID`, if one was made.
    package func record(emailID: String) throws -> NotificationRecord? {
        try snapshot.get(NotificationsProjector.decisionsTable, Key(emailID).bytes)
    }

    /// The standing decision of a message of `account` (`messageKey`: the threads view's message key): its posted
    /// one, else its first; nil when none was recorded with its message key (none, or only version 1 decisions).
    package func messageRecord(account: String, messageKey: String) throws -> NotificationRecord? {
        guard !messageKey.isEmpty,
              let emailID = try snapshot.get(NotificationsProjector.messagesTable, NotificationsProjector.messageKey(account: account, messageKey))
        else { return nil }
        return try record(emailID: emailID)
    }

    /// The most recent decisions, newest first (of `account` when given, else of every account but those of
    /// `leavingOut`), at most `limit`.
    package func recent(account: String? = nil, leavingOut: Set<String> = [], limit: Int = 100) throws -> [NotificationRecord] {
        var out: [NotificationRecord] = []
        guard limit > 0 else { return out }
        try snapshot.scan(NotificationsProjector.recentTable, prefix: []) { _, emailID in
            if let r = try record(emailID: emailID), account.map({ r.account == $0 }) ?? !leavingOut.contains(r.account) { out.append(r) }
            return out.count < limit
        }
        return out
    }

    /// Posted decisions not yet delivered, oldest first, at most `limit`.
    package func pendingDeliveries(limit: Int = 1_000) throws -> [NotificationRecord] {
        var out: [NotificationRecord] = []
        guard limit > 0 else { return out }
        try snapshot.scan(NotificationsProjector.pendingTable, prefix: []) { _, emailID in
            if let r = try record(emailID: emailID) { out.append(r) }
            return out.count < limit
        }
        return out
    }

    /// The posted decisions whose sync was at `since` or later, the newest folded first, at most `limit` (of the last
    /// `NotificationsProjector.postedCapacity` posted): what the flood caps across syncs count.
    package func recentlyPosted(since: Timestamp, limit: Int = NotificationsProjector.postedCapacity) throws -> [NotificationRecord] {
        var out: [NotificationRecord] = []
        guard limit > 0 else { return out }
        try snapshot.scan(NotificationsProjector.postedTable, prefix: []) { _, emailID in
            guard let r = try record(emailID: emailID) else { return true }
            // In fold order, not sync time (two accounts' syncs commit in either order): an older one is skipped, the walk
            // goes on (the table keeps at most `postedCapacity`).
            guard r.decision.syncTime >= since else { return true }
            out.append(r)
            return out.count < limit
        }
        return out
    }

    /// How many VIP adds and mutes the fold left out at their caps (`NotificationsProjector.maxVIPs`,
    /// `maxMutedThreads`) since the last reset: adds recorded past the cap by another build or racing past its check.
    package func leftOut() throws -> (vips: UInt64, mutedThreads: UInt64) {
        (try snapshot.get(NotificationsProjector.metaTable, NotificationsProjector.vipsLeftOutKey) ?? 0,
         try snapshot.get(NotificationsProjector.metaTable, NotificationsProjector.mutesLeftOutKey) ?? 0)
    }

    /// Withdrawals owed: thread id, the emails whose notifications are showing, and why.
    package func pendingWithdrawals(limit: Int = 1_000) throws -> [(threadID: String, withdrawal: PendingWithdrawal)] {
        try snapshot.prefixed(NotificationsProjector.withdrawTable, [], limit: limit).map { key, w in
            var r = KeyReader(key)
            return (r.string(), w)
        }
    }

    /// The delivered notifications of `threadID` still showing.
    package func showing(threadID: String) throws -> [String] {
        try snapshot.get(NotificationsProjector.showingTable, Key(threadID).bytes) ?? []
    }

    /// The log sequence of `account`'s last recorded decision, nil when none.
    package func lastDecidedSequence(account: String) throws -> UInt64? {
        try snapshot.get(NotificationsProjector.metaTable, NotificationsProjector.lastDecidedKey(account))
    }
}
