/// Reads the dedup view.
package struct DedupReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// The copies of a message (emails and folders) in `account`.
    package func copies(account: String, messageID: String) throws -> [DedupCopy] {
        try snapshot.get(DedupProjector.messagesTable, DedupProjector.messageKey(account: account, messageID: messageID)) ?? []
    }

    /// Every message of `account` with more than one copy (a Message-ID over `Key.maxPartBytes` bytes
    /// shows in its bounded form).
    package func duplicates(account: String) throws -> [(String, [DedupCopy])] {
        try snapshot.prefixed(DedupProjector.messagesTable, Key(account).bytes).compactMap { key, copies in
            guard copies.count > 1 else { return nil }
            var r = KeyReader(key)
            _ = r.string()
            return (r.string(), copies)
        }
    }

    /// True when a notification was delivered for `emailID` (and not yet evicted).
    package func wasNotified(emailID: String) throws -> Bool {
        try snapshot.get(DedupProjector.notifiedTable, Key(emailID).bytes) != nil
    }
}
