import EventModel
import LMDB
import Projections

extension ViewStore {
    func value<V: BinaryField>(_ table: String, _ key: [UInt8], as: V.Type) throws -> V? {
        let db = databases[table]!
        return try environment.read { txn in
            guard let raw = try key.withUnsafeBytes({ try txn.get(db, key: $0) }) else { return nil }
            var r = ByteReader(raw)
            return try V(from: &r)
        }
    }

    func prefixed<V: BinaryField>(_ table: String, _ prefix: [UInt8], as: V.Type) throws -> [([UInt8], V)] {
        let db = databases[table]!
        return try environment.read { txn in
            var out: [([UInt8], V)] = []
            try txn.withCursor(db) { c in
                // LMDB refuses an empty key: an empty prefix starts at the first entry.
                var e = prefix.isEmpty ? try c.first() : try prefix.withUnsafeBytes { try c.seek(atLeast: $0) }
                while let entry = e, entry.key.starts(with: prefix) {
                    var r = ByteReader(entry.value)
                    out.append((Array(entry.key), try V(from: &r)))
                    e = try c.next()
                }
            }
            return out
        }
    }

    /// An unread counter: `folder` is a folder path, `UnreadProjector.accountScope` (the whole account)
    /// or `UnreadProjector.badgeScope` (Inbox-role folders; account `*` for every account); `category` a
    /// category name, `all`, or `UnreadProjector.totalCategory` (all messages, read or not). One lookup.
    public func unreadCount(account: String, folder: String, category: String) throws -> Int {
        try value("unread.counts", UnreadProjector.countKey(account: account, folder: folder, category: category), as: Int.self) ?? 0
    }

    /// The folders of `account`, in the folders view's order.
    public func folders(account: String) throws -> [FolderEntry] {
        try prefixed("folders.list", Key(account).bytes, as: FolderEntry.self).map(\.1).sorted {
            let (a, b) = (FoldersProjector.order($0.role), FoldersProjector.order($1.role))
            return a != b ? a < b : $0.displayName.localizedLowercase < $1.displayName.localizedLowercase
        }
    }

    /// The accounts that have folders.
    public func accounts() throws -> [String] {
        var out: [String] = []
        try entries(of: "folders.list") { key, _ in
            var r = KeyReader(key)
            let a = r.string()
            if out.last != a { out.append(a) }
        }
        return out
    }

    /// The outbox of `account` (queued, sending, failed), newest first.
    public func outbox(account: String) throws -> [OutboxItem] {
        let ids = try prefixed("outbox.index", Key(account).bytes, as: Present.self).map { key, _ -> String in
            var r = KeyReader(key)
            _ = r.string()
            _ = r.descending()
            return r.string()
        }
        return try ids.compactMap { try value("outbox.items", Key($0).bytes, as: OutboxItem.self) }
    }

    /// The queued + failed count of `account` (the Outbox badge).
    public func outboxCount(account: String) throws -> Int {
        try value("outbox.counts", Key(account).bytes, as: Int.self) ?? 0
    }

    /// The copies of a message (emails and folders) in `account`.
    public func copies(account: String, messageID: String) throws -> [DedupCopy] {
        try value("dedup.messages", DedupProjector.messageKey(account: account, messageID: messageID), as: [DedupCopy].self) ?? []
    }

    /// Every message of `account` with more than one copy.
    public func duplicates(account: String) throws -> [(String, [DedupCopy])] {
        try prefixed("dedup.messages", Key(account).bytes, as: [DedupCopy].self).compactMap { key, copies in
            guard copies.count > 1 else { return nil }
            var r = KeyReader(key)
            _ = r.string()
            return (r.string(), copies)
        }
    }

    /// True when a notification was delivered for `emailID` (and not yet evicted).
    public func wasNotified(emailID: String) throws -> Bool {
        try value("dedup.notified", Key(emailID).bytes, as: UInt64.self) != nil
    }
}
