import EventLog
import EventModel
import Foundation
import Projections

/// The coordinator's link to sync and delivery: which emails a sync brought (the `EmailReceived` events
/// appended after a log position), whether it was the account's first, and the delivery loop that runs
/// the caller's side effects and records them.
extension NotificationCoordinator {
    /// The most new emails one sync's decision considers (the rest are left undecided: no banner).
    public static let maxEmailsPerDecision = 10_000

    /// True when `account` has no folder synced yet: its next sync is its first (nothing is posted).
    public func isFirstSync(account: String) throws -> Bool {
        let views = try store.views()
        for f in try views.folders(account: account) where try views.syncState(account: account, folder: f.path) != nil {
            return false
        }
        return true
    }

    /// Where a watch of `account` resumes deciding: the log sequence of its last recorded decision (so emails
    /// a crashed run synced but did not decide are decided now), else `fallback` (the log's head: mail
    /// synced before any watch is not announced).
    public func resumeSequence(account: String, fallback: UInt64) throws -> UInt64 {
        try store.views().lastDecidedSequence(account: account) ?? fallback
    }

    /// Decides the notifications for the emails of `account` received after log sequence `after` (a sync
    /// that just ended), with `sync`'s time and mode, and records the decisions. Returns them.
    @discardableResult
    public func didSync(account: String, after: UInt64, sync: NotificationSync) throws -> [NotificationDecided] {
        var ids: [String] = []
        try store.scan(from: after + 1, filter: ScanFilter(types: [.emailReceived], account: account)) { ev in
            if case .emailReceived(let p) = try ev.decode() { ids.append(p.emailID) }
            return ids.count < NotificationCoordinator.maxEmailsPerDecision
        }
        return try didSyncNewEmails(account: account, emailIDs: ids, sync: sync)
    }

    /// Runs the owed side effects and records each one that succeeded: `post` for every posted decision
    /// not yet delivered (then `NotificationDelivered`), `withdraw` for every withdrawal owed (then
    /// `NotificationWithdrawn`). A crash before a record leaves the item pending, so it is done after the
    /// restart (never lost; at most repeated once, if the crash fell between the side effect and its
    /// record). Returns how many were delivered and withdrawn.
    ///
    /// A posted decision still undelivered `maxAge` after its sync (no notify command ran, or it kept
    /// failing) is dropped instead, recorded as `NotificationWithdrawn` with reason `expired`: a banner
    /// that late is noise, and the pending list stays short.
    @discardableResult
    public func deliverPending(now: Timestamp = .now, maxAge: Int64 = NotificationCoordinator.maxDeliveryAgeSeconds,
                               post: (NotificationRecord) -> Bool,
                               withdraw: (_ threadID: String, PendingWithdrawal) -> Bool) throws -> (delivered: Int, withdrawn: Int) {
        var delivered = 0, withdrawn = 0
        for (thread, w) in try pendingWithdrawals() where withdraw(thread, w) {
            try recordWithdrawn(threadID: thread, emailIDs: w.emailIDs, reason: w.reason)
            withdrawn += 1
        }
        for r in try pendingDeliveries() {
            if now.microseconds - r.decision.syncTime.microseconds > maxAge * 1_000_000 {
                try recordWithdrawn(threadID: r.decision.threadID, emailIDs: [r.decision.emailID], reason: "expired", account: r.account)
            } else if post(r) {
                try recordDelivered(r)
                delivered += 1
            }
        }
        return (delivered, withdrawn)
    }

    /// How long after its sync a posted notification may still be delivered (1 hour).
    public static let maxDeliveryAgeSeconds: Int64 = 3_600
}
