/// Reads the actions view.
package struct ActionsReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// An action and its outcome so far.
    package func action(id: String) throws -> ActionRecord? {
        try snapshot.get(ActionsProjector.itemsTable, Key(id).bytes)
    }

    /// The actions of `account` not yet written back, oldest first.
    package func pending(account: String) throws -> [ActionRecord] {
        try snapshot.prefixed(ActionsProjector.pendingTable, Key(account).bytes).compactMap { try action(id: $0.1) }
    }

    /// The actions of `account` that failed or were refused and were not retried or undone, oldest first.
    package func failed(account: String) throws -> [ActionRecord] {
        try snapshot.prefixed(ActionsProjector.failedTable, Key(account).bytes).compactMap { try action(id: $0.1) }
    }

    /// The ids of the actions that touched a thread (or, with `email: true`, an email), oldest first.
    package func actionIDs(touching id: String, email: Bool = false) throws -> [String] {
        let table = email ? ActionsProjector.byEmailTable : ActionsProjector.byThreadTable
        let ids = try snapshot.prefixed(table, Key(id).bytes).map { key, _ in
            var r = KeyReader(key)
            _ = r.string()
            return r.string()
        }
        return try ids.compactMap { try action(id: $0) }.sorted { $0.sequence < $1.sequence }.map(\.id.description)
    }
}
