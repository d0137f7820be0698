import EventModel
import Projections
import Views

// The notifications view, read through the store's views (one short read transaction each).
extension ViewStore {
    /// The notification preferences.
    func notificationSettings() throws -> NotificationSettings { try read { try NotificationsReader($0).settings() } }

    /// The decision for an email, or nil.
    func notificationRecord(emailID: String) throws -> NotificationRecord? { try read { try NotificationsReader($0).record(emailID: emailID) } }

    /// The standing decision of a message (its posted one, else its first), or nil.
    func notificationRecord(account: String, messageKey: String) throws -> NotificationRecord? {
        try read { try NotificationsReader($0).messageRecord(account: account, messageKey: messageKey) }
    }

    /// The most recent decisions, newest first.
    func recentNotifications(account: String?, leavingOut: Set<String> = [], limit: Int) throws -> [NotificationRecord] {
        try read { try NotificationsReader($0).recent(account: account, leavingOut: leavingOut, limit: limit) }
    }

    /// Posted decisions waiting for delivery, oldest first.
    func pendingNotificationDeliveries(limit: Int) throws -> [NotificationRecord] {
        try read { try NotificationsReader($0).pendingDeliveries(limit: limit) }
    }

    /// The posted decisions of syncs at `since` or later, newest first (bounded by `NotificationsProjector.postedCapacity`).
    func recentlyPostedNotifications(since: Timestamp) throws -> [NotificationRecord] {
        try read { try NotificationsReader($0).recentlyPosted(since: since) }
    }

    /// How many VIP adds and mutes the fold left out at their caps since the last reset.
    func notificationsLeftOut() throws -> (vips: UInt64, mutedThreads: UInt64) { try read { try NotificationsReader($0).leftOut() } }

    /// Withdrawals owed.
    func pendingNotificationWithdrawals(limit: Int) throws -> [(threadID: String, withdrawal: PendingWithdrawal)] {
        try read { try NotificationsReader($0).pendingWithdrawals(limit: limit) }
    }

    /// The delivered notifications of a thread still showing.
    func showingNotifications(threadID: String) throws -> [String] { try read { try NotificationsReader($0).showing(threadID: threadID) } }

    /// The log sequence of `account`'s last recorded decision, nil when none.
    func lastDecidedSequence(account: String) throws -> UInt64? {
        try read { try NotificationsReader($0).lastDecidedSequence(account: account) }
    }
}
