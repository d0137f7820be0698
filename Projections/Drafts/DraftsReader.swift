/// Reads the drafts view.
package struct DraftsReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// A draft at its latest version, or nil (never saved, deleted or sent).
    package func draft(id: String) throws -> DraftRecord? {
        try snapshot.get(DraftsProjector.itemsTable, Key(id).bytes)
    }

    /// The drafts of `account`.
    package func drafts(account: String) throws -> [DraftRecord] {
        try snapshot.prefixed(DraftsProjector.indexTable, Key(account).bytes).compactMap { key, _ in
            var r = KeyReader(key)
            _ = r.string()
            return try draft(id: r.string())
        }
    }
}
