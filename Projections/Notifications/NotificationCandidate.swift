import EventModel

/// A new email the decision considers, with what the rules read: its copies' folder roles (an email in
/// Inbox and Starred has inbox association), its category and its thread.
public struct NotificationCandidate: Equatable, Sendable {
    /// The email (the notification's identifier is `email-<emailID>`).
    public var emailID: String
    /// The same message's key across folders (account + Message-ID), so two copies give one notification.
    public var messageKey: String
    /// The thread (the notification's group).
    public var threadID: String
    /// The account.
    public var account: String
    /// The sender's display name, if any.
    public var fromName: String?
    /// The sender's address.
    public var fromAddress: String
    /// The subject.
    public var subject: String
    /// The snippet (nil or empty gives an empty body).
    public var snippet: String?
    /// When the email arrived (the server's INTERNALDATE for synced mail; see
    /// `NotificationCoordinator.arrival`): recency and the per-sync cap go by it, never by the sender's Date header.
    public var dateReceived: Timestamp
    /// The roles of the folders holding it.
    public var folderRoles: Set<FolderRole>
    /// Its category (`.uncategorized` when none).
    public var category: AICategory
    /// Whether the sender is the user: a configured account's address, or an alias (an address with at least half
    /// of its mail in a Sent-role folder, `Contact.isUsersOwn`). The user's own mail in the Inbox (a list's copy of
    /// what they wrote, a note to self) is not news to them: suppressed `own-mail` unless the sender is a VIP.
    public var fromUser: Bool

    /// Creates a candidate.
    public init(emailID: String, messageKey: String? = nil, threadID: String, account: String, fromName: String?, fromAddress: String,
                subject: String, snippet: String?, dateReceived: Timestamp, folderRoles: Set<FolderRole>, category: AICategory = .uncategorized, fromUser: Bool = false) {
        self.emailID = emailID
        self.messageKey = messageKey ?? emailID
        self.threadID = threadID
        self.account = account
        self.fromName = fromName
        self.fromAddress = fromAddress
        self.subject = subject
        self.snippet = snippet
        self.dateReceived = dateReceived
        self.folderRoles = folderRoles
        self.category = category
        self.fromUser = fromUser
    }
}
