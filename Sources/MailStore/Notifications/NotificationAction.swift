/// What the user can do from a notification (spec NOTIF-06, AC-N-16..19).
public enum NotificationAction: String, CaseIterable, Sendable {
    /// Mark the notification's thread read (AC-N-16).
    case markRead = "mark-read"
    /// Archive the thread (AC-N-17).
    case archive
    /// Delete the thread (AC-N-18).
    case delete
    /// Reply to the notified email with a short text, queued for sending (AC-N-19).
    case reply
}

/// What a notification action did: the thread acted on, the notifications withdrawn, the badge after it,
/// and for a reply the queued draft.
public struct NotificationActionResult: Sendable, Equatable {
    /// The thread of the notified email.
    public var threadID: String
    /// The emails whose notifications were withdrawn.
    public var withdrawn: [String]
    /// The badge (unread mail in Inbox-role folders, every account) after the action.
    public var badge: Int
    /// The reply's draft id (queued for sending), for `.reply`.
    public var draftID: String?
}
