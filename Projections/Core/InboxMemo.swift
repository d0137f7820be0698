import EventModel

/// The Inbox role of the last few folders a fold asked about, remembered until a role is set or the batch's
/// changes begin or are dropped: a batch of actions asks about the same two folders for each of thousands of
/// copies, and each answer from the table was a key built and a cache lookup (a fifth of the unread view's
/// work in an archive of 1,000 threads).
struct InboxMemo {
    /// How many folders are remembered at most (the oldest answer goes first).
    static let capacity = 8
    private var entries: [(account: String, folder: String, inbox: Bool)] = []

    /// `roles.isInbox(account:folder:)`, remembered.
    mutating func isInbox(account: String, folder: String, in roles: ViewTable<FolderRole>) throws -> Bool {
        for e in entries where e.folder == folder && e.account == account { return e.inbox }
        let inbox = try roles.isInbox(account: account, folder: folder)
        if entries.count == InboxMemo.capacity { entries.removeFirst() }
        entries.append((account, folder, inbox))
        return inbox
    }

    /// Forgets every answer: when a role is set, and when a batch's changes begin or are dropped.
    mutating func forget() { entries.removeAll(keepingCapacity: true) }
}
