/// Reads the outbox view.
package struct OutboxReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// A draft's place in the outbox (draft, queued, sending, sent, failed), or nil.
    package func item(draftID: String) throws -> OutboxItem? {
        try snapshot.get(OutboxProjector.itemsTable, Key(draftID).bytes)
    }

    /// The outbox of `account` (queued, sending, failed), newest first.
    package func items(account: String) throws -> [OutboxItem] {
        try snapshot.prefixed(OutboxProjector.indexTable, Key(account).bytes).compactMap { key, _ in
            var r = KeyReader(key)
            _ = r.string()
            _ = r.descending()
            return try item(draftID: r.string())
        }
    }

    /// `account`'s pause for its server (its most recent attempt's outcome was that the server did not serve the
    /// message), or nil; it may be over (`until` past).
    package func pause(account: String) throws -> OutboxPause? {
        try snapshot.get(OutboxProjector.pausesTable, Key(account).bytes)
    }

    /// The queued + failed count of `account` (the Outbox badge).
    package func count(account: String) throws -> Int {
        try snapshot.get(OutboxProjector.countsTable, Key(account).bytes) ?? 0
    }
}
