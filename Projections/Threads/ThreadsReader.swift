import EventModel

/// Reads the threads view: thread pages from the newest-first index, thread rows, and the emails of a
/// thread. The key layout is `ThreadsProjector`'s.
package struct ThreadsReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// One page of a thread listing from the index: rows after `after` (date, thread id), newest first,
    /// at most `limit`, and whether more follow.
    package func page(scope: String, folder: FolderPart, category: AICategory?, after: (Timestamp, String)?,
                     limit: Int) throws -> (threads: [ThreadRow], hasMore: Bool) {
        let prefix = ThreadsProjector.indexPrefix(scope: scope, folder: folder, category: category).bytes
        var start = prefix
        if let (date, id) = after {
            start = ThreadsProjector.indexKey(scope: scope, folder: folder, category: category, date: date, thread: id)
            start.append(0) // strictly after the cursor's own key
        }
        var out: [ThreadRow] = []
        var hasMore = false
        try snapshot.scan(ThreadsProjector.indexTable, prefix: prefix, from: start) { key, _ in
            if out.count == limit {
                hasMore = true
                return false
            }
            var r = KeyReader(key)
            _ = r.string(); _ = r.string(); _ = r.string(); _ = r.descending()
            if let row = try thread(id: r.string()) { out.append(row) }
            return true
        }
        return (out, hasMore)
    }

    /// One page of the listing of the folder of path `folder` (`page(scope:folder:category:after:limit:)` with a
    /// `FolderPart`).
    package func page(scope: String, folder: String, category: AICategory?, after: (Timestamp, String)?,
                     limit: Int) throws -> (threads: [ThreadRow], hasMore: Bool) {
        try page(scope: scope, folder: .path(folder), category: category, after: after, limit: limit)
    }

    /// Unread messages of the threads of `category` in `folder` (a folder's path, `.wholeAccount` for the whole account,
    /// `.badge` for its Inbox-role folders; scope `*` with the badge: every account's): what a category tab of that
    /// listing shows as its badge. One key lookup.
    package func unreadCount(scope: String, folder: FolderPart, category: AICategory) throws -> Int {
        try snapshot.get(ThreadsProjector.countsTable, ThreadsProjector.countKey(scope: scope, folder: folder, category: category)) ?? 0
    }

    /// A thread's row by id.
    package func thread(id: String) throws -> ThreadRow? {
        try snapshot.get(ThreadsProjector.rowsTable, Key(id).bytes)
    }

    /// One email copy as the threads view has it.
    package func email(id: String) throws -> EmailRecord? {
        try snapshot.get(ThreadsProjector.emailsTable, Key(id).bytes)
    }

    /// A thread's membership record: its emails now and every message key linked to it. An emptied thread (all of
    /// its mail expunged) keeps its record, its links standing; nil for an id no thread has (never had, or merged away).
    package func record(thread id: String) throws -> ThreadRecord? {
        try snapshot.get(ThreadsProjector.threadsTable, Key(id).bytes)
    }

    /// The thread a message key of `account` is linked to now (a message's own key, or one its mail references): where
    /// a thread merged into another left its links. Nil when no thread links it.
    package func thread(linking key: String, account: String) throws -> String? {
        try snapshot.get(ThreadsProjector.linksTable, Key(account, key).bytes)
    }

    /// The emails of a thread (each copy's folder, flags, message key).
    package func emails(thread id: String) throws -> [(id: String, email: EmailRecord)] {
        guard let t = try snapshot.get(ThreadsProjector.threadsTable, Key(id).bytes) else { return [] }
        return try t.emailIDs.compactMap { e in try email(id: e).map { (e, $0) } }
    }

    /// The copies of a thread with what an action needs of each (`EmailCopyState`), in the thread's order: as
    /// `emails(thread:)`, reading only the thread's email ids and the copies' account, folder and flags.
    package func copyStates(thread id: String) throws -> [(id: String, state: EmailCopyState)] {
        guard let raw = try snapshot.reader.get(ThreadsProjector.threadsTable.name, Key(id).bytes) else { return [] }
        let ids = try raw.withUnsafeBytes { buf throws(DecodeError) -> [String] in
            var r = ByteReader(buf)
            return try ThreadRecord.emailIDs(from: &r)
        }
        return try ids.compactMap { e in try copyState(email: e).map { (e, $0) } }
    }

    /// What an action needs of one email copy (`EmailCopyState`), or nil when the view does not have it.
    package func copyState(email id: String) throws -> EmailCopyState? {
        guard let raw = try snapshot.reader.get(ThreadsProjector.emailsTable.name, Key(id).bytes) else { return nil }
        return try raw.withUnsafeBytes { buf throws(DecodeError) in
            var r = ByteReader(buf)
            return try EmailCopyState(from: &r)
        }
    }
}
