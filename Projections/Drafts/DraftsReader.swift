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

    /// A draft's server copies and upload state, or nil when it has none and nothing was tried.
    package func serverState(account: String, draftID: String) throws -> DraftServerState? {
        try snapshot.get(DraftsProjector.serverTable, Key(account, draftID).bytes)
    }

    /// The server states of `account`'s drafts, those of drafts sent or deleted whose copies are still to be
    /// deleted from the server included.
    package func serverStates(account: String) throws -> [DraftServerState] {
        try snapshot.prefixed(DraftsProjector.serverTable, Key(account).bytes).map(\.1)
    }

    /// How many copies of our drafts that sync recorded are in `folder` of `account` (not yet expunged).
    package func ownCopies(account: String, folder: String) throws -> Int {
        try snapshot.prefixed(DraftsProjector.syncedTable, Key(account).bytes).filter { $0.1 == folder }.count
    }
}
