import EventModel
import Projections

// The notification types that are part of the library's API (callers import `MailStore` alone).

/// What the decision made of a new email: posted, badge-only or suppressed.
public typealias NotificationOutcome = EventModel.NotificationOutcome
/// Which notification preference changed.
public typealias NotificationPreference = EventModel.NotificationPreference
/// A recorded notification decision with its content.
public typealias NotificationDecided = EventModel.NotificationDecided
/// The notification preferences.
public typealias NotificationSettings = Projections.NotificationSettings
/// A daily quiet period in local time.
public typealias QuietHours = Projections.QuietHours
/// A decided notification and its delivery state.
public typealias NotificationRecord = Projections.NotificationRecord
/// Delivered notifications of a thread owed a withdrawal.
public typealias PendingWithdrawal = Projections.PendingWithdrawal
/// The sync a notification decision belongs to (its time, foreground or background, first sync, active folder).
public typealias NotificationSync = Projections.NotificationSync
/// A new email as the notification decision sees it.
public typealias NotificationCandidate = Projections.NotificationCandidate
/// The pure notification decision.
public typealias NotificationDecider = Projections.NotificationDecider
/// A folder's role (inbox, sent, junk, ...).
public typealias FolderRole = EventModel.FolderRole
