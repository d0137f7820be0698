import EventModel

/// The notification decision: a pure function of the new emails of one sync, the preferences and the
/// sync as recorded in the log. The same inputs give the same `NotificationDecided` events, so the
/// decisions recorded in the log replay identically and `history` explains each.
///
/// Per email, in order: dedup (one decision per message within a sync; the caller's `alreadyDecided` skips
/// the emails decided before: see `NotificationCoordinator.didSyncNewEmails`); the account's first sync, or
/// the first of a session, suppresses everything; the filter pipeline (AND: account enabled, not Junk, inbox
/// association, not the user's own mail, category enabled with uncategorized passing, outside quiet hours, thread not muted), bypassed by
/// a VIP sender; the folder the user is looking at gives badge only; recency (5 minutes foreground, 1 hour
/// background) by `dateReceived`, the arrival time, never the sender's Date header; at most `maxBannersPerSync`
/// banners, the newest by arrival, the rest badge only.
public enum NotificationDecider {
    /// The most banners one sync posts (the spec's 10).
    public static let maxBannersPerSync = 10
    /// The most characters of the snippet in the body (the spec's 100).
    public static let bodyCharacters = 100

    /// The decisions for `candidates`, in their order; `alreadyDecided` says whether a candidate is not to be
    /// decided (those are skipped: the coordinator's dedup, which only a posted copy makes final for a message).
    public static func decide(_ candidates: [NotificationCandidate], settings: NotificationSettings, sync: NotificationSync,
                              alreadyDecided: (NotificationCandidate) -> Bool = { _ in false }) -> [NotificationDecided] {
        var seen = Set<String>()
        var decisions: [NotificationDecided] = []
        var postedIndexes: [Int] = []
        var received: [Timestamp] = []
        for c in candidates {
            // Asked before the message is taken as seen: a copy skipped as decided (outside the Inbox) must leave the
            // message to a later copy of this sync that is to be decided (one in the Inbox).
            guard !alreadyDecided(c), seen.insert(c.messageKey).inserted else { continue }
            let (outcome, reason) = rule(c, settings: settings, sync: sync)
            if outcome == .posted { postedIndexes.append(decisions.count) }
            decisions.append(decision(c, outcome: outcome, reason: reason, sync: sync))
            received.append(c.dateReceived)
        }
        if postedIndexes.count > maxBannersPerSync {
            let newestFirst = postedIndexes.sorted {
                received[$0] != received[$1] ? received[$0] > received[$1] : decisions[$0].emailID < decisions[$1].emailID
            }
            for i in newestFirst.dropFirst(maxBannersPerSync) {
                decisions[i].outcome = .badgeOnly
                decisions[i].reason = "flood-cap"
            }
        }
        return decisions
    }

    /// The outcome and reason for one email before the per-sync cap.
    static func rule(_ c: NotificationCandidate, settings: NotificationSettings, sync: NotificationSync) -> (NotificationOutcome, String) {
        if sync.isFirstSync { return (.suppressed, "first-sync") }
        if sync.isSessionStart { return (.suppressed, "session-start") }
        let vip = settings.isVIP(c.fromAddress)
        if !vip, let reason = filterReason(c, settings: settings, sync: sync) { return (.suppressed, reason) }
        if let active = sync.activeFolder, c.folderRoles.contains(active) { return (.badgeOnly, "active-folder") }
        if sync.time.microseconds - c.dateReceived.microseconds > sync.recencyMicroseconds { return (.suppressed, "too-old") }
        return (.posted, vip ? "vip" : "passed")
    }

    /// The first filter of the pipeline that rejects `c`, nil when every filter passes.
    public static func filterReason(_ c: NotificationCandidate, settings: NotificationSettings, sync: NotificationSync) -> String? {
        if settings.disabledAccounts.contains(c.account) { return "account-disabled" }
        if c.folderRoles.contains(.junk) { return "junk" }
        if !c.folderRoles.contains(.inbox) { return "not-in-inbox" }
        if c.fromUser { return "own-mail" }
        if c.category != .uncategorized, settings.disabledCategories.contains(c.category) { return "category-off" }
        if let quiet = settings.quietHours, quiet.contains(minute: sync.localMinute) { return "quiet-hours" }
        if settings.mutedThreads.contains(c.threadID) { return "muted" }
        return nil
    }

    /// The decision event for `c` with its content: title the sender's name else address, subtitle the
    /// subject, body the snippet's first 100 characters.
    public static func decision(_ c: NotificationCandidate, outcome: NotificationOutcome, reason: String, sync: NotificationSync) -> NotificationDecided {
        let name = c.fromName ?? ""
        return NotificationDecided(emailID: c.emailID, threadID: c.threadID, outcome: outcome, reason: reason, syncTime: sync.time,
                                   title: name.isEmpty ? c.fromAddress : name, subtitle: c.subject,
                                   body: String((c.snippet ?? "").prefix(bodyCharacters)), fromAddress: c.fromAddress,
                                   messageKey: c.messageKey)
    }
}
