/// Reads the dedup view.
public struct DedupReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    public init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// The copies of a message (emails and folders) in `account`.
    public func copies(account: String, messageID: String) throws -> [DedupCopy] {
        try snapshot.get(DedupProjector.messagesTable, DedupProjector.messageKey(account: account, messageID: messageID)) ?? []
    }

    /// Every message of `account` with more than one copy (a Message-ID over `Key.maxPartBytes` bytes
    /// shows in its bounded form).
    public func duplicates(account: String) throws -> [(String, [DedupCopy])] {
        try snapshot.prefixed(DedupProjector.messagesTable, Key(account).bytes).compactMap { key, copies in
            guard copies.count > 1 else { return nil }
            var r = KeyReader(key)
            _ = r.string()
            return (r.string(), copies)
        }
    }

    /// True when a notification was delivered for `emailID` (and not yet evicted).
    public func wasNotified(emailID: String) throws -> Bool {
        try snapshot.get(DedupProjector.notifiedTable, Key(emailID).bytes) != nil
    }
}
