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
/// background) by `dateReceived`, the arrival time, never the sender's Date header; then the flood caps, over the
/// posted ones newest by arrival first: a thread with banners standing from earlier syncs (posted in the last
/// `threadWindowSeconds`, not withdrawn since: not read, archived, deleted or muted) gets new ones only up to
/// `maxBannersPerThread` standing in all (badge only, `thread-cap`); at most `maxBannersPerSync` banners a sync and `maxBannersPerWindow` in any `bannerWindowSeconds`
/// across syncs (badge only, `flood-cap`). The windows go by the syncs' recorded times (`NotificationDecided.syncTime`
/// of the earlier decisions, `NotificationSync.time` of this one), never the wall clock, and the decisions are recorded
/// as events: a replay folds the same decisions and never re-decides.
public enum NotificationDecider {
    /// The most banners one sync posts (the spec's 10, AC-N-13).
    public static let maxBannersPerSync = 10
    /// The most banners posted in any `bannerWindowSeconds` across syncs: a burst that comes over many syncs (2,000
    /// messages in a minute, a sync every second) posts this many, the rest badge only (`flood-cap`). Twice the per-sync
    /// cap, so one sync's full 10 after an earlier banner or two are still posted (AC-N-13).
    public static let maxBannersPerWindow = 20
    /// The flood window (1 minute).
    public static let bannerWindowSeconds: Int64 = 60
    /// The most banners of a thread already notified by an earlier sync standing in `threadWindowSeconds` (posted, not
    /// withdrawn since): a busy thread's replies over many syncs give no more banners (`thread-cap`) until the thread is
    /// read (which withdraws its banners) or the window has passed. The first sync that notifies a thread is bounded by
    /// the per-sync cap alone: three new emails of a thread in one sync are all posted (the spec's AC-N-04), fifteen give
    /// ten (AC-N-13).
    public static let maxBannersPerThread = 3
    /// The thread window (10 minutes).
    public static let threadWindowSeconds: Int64 = 600
    /// How far back the earlier posted decisions the caps read go (the longer window).
    public static var lookBackSeconds: Int64 { max(bannerWindowSeconds, threadWindowSeconds) }
    /// The most characters of the snippet in the body (the spec's 100).
    public static let bodyCharacters = 100

    /// The decisions for `candidates`, in their order; `alreadyDecided` says whether a candidate is not to be
    /// decided (those are skipped: the coordinator's dedup, which only a posted copy makes final for a message).
    /// `recentlyPosted`: the posted decisions of earlier syncs within `lookBackSeconds` before `sync.time` (the
    /// notifications view's `recentlyPosted`), which the caps across syncs count.
    public static func decide(_ candidates: [NotificationCandidate], settings: NotificationSettings, sync: NotificationSync,
                              recentlyPosted: [NotificationRecord] = [],
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
        let newestFirst = postedIndexes.sorted {
            received[$0] != received[$1] ? received[$0] > received[$1] : decisions[$0].emailID < decisions[$1].emailID
        }
        var (budget, perThread) = allowance(recentlyPosted, at: sync.time)
        for i in newestFirst {
            let thread = decisions[i].threadID
            if let standing = perThread[thread], standing >= maxBannersPerThread {
                decisions[i].outcome = .badgeOnly
                decisions[i].reason = "thread-cap"
            } else if budget <= 0 {
                decisions[i].outcome = .badgeOnly
                decisions[i].reason = "flood-cap"
            } else {
                budget -= 1
                // Counted on only for a thread notified by an earlier sync (the first sync's are bounded by `budget`).
                if let standing = perThread[thread] { perThread[thread] = standing + 1 }
            }
        }
        return decisions
    }

    /// What the caps leave a sync at `time` after the earlier posted decisions `earlier`: how many banners it may post
    /// (`maxBannersPerSync`, less what is over `maxBannersPerWindow` with those of the last `bannerWindowSeconds`), and
    /// per thread the banners still standing (not withdrawn) of the last `threadWindowSeconds` (threads with none are
    /// not in it).
    static func allowance(_ earlier: [NotificationRecord], at time: Timestamp) -> (budget: Int, perThread: [String: Int]) {
        let floodFrom = time.microseconds - bannerWindowSeconds * 1_000_000
        let threadFrom = time.microseconds - threadWindowSeconds * 1_000_000
        var inWindow = 0
        var perThread: [String: Int] = [:]
        for r in earlier where r.decision.outcome == .posted && r.decision.syncTime.microseconds <= time.microseconds {
            let at = r.decision.syncTime.microseconds
            if at > floodFrom { inWindow += 1 }
            if at > threadFrom, r.state != .withdrawn { perThread[r.decision.threadID, default: 0] += 1 }
        }
        return (max(0, min(maxBannersPerSync, maxBannersPerWindow - inWindow)), perThread)
    }

    /// The outcome and reason for one email before the flood caps.
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
