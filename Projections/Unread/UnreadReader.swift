/// Reads the unread view's counters (one key lookup each).
package struct UnreadReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// An unread counter: `folder` is a folder's path (`.path`), `.wholeAccount` (`UnreadProjector.accountScope`) or
    /// `.badge` (`UnreadProjector.badgeScope`: Inbox-role folders; account `*` for every account); `category` `all`, or
    /// `UnreadProjector.totalCategory` (all messages, read or not). The counts by category are the threads view's
    /// (`ThreadsReader.unreadCount`).
    package func count(account: String, folder: FolderPart, category: String) throws -> Int {
        try snapshot.get(UnreadProjector.countsTable, UnreadProjector.countKey(account: account, folder: folder, category: category)) ?? 0
    }

    /// An unread counter of the folder of path `folder` (see `count(account:folder:category:)` with a `FolderPart`).
    package func count(account: String, folder: String, category: String) throws -> Int {
        try count(account: account, folder: .path(folder), category: category)
    }
}
