/// Reads the sync state view.
package struct SyncStateReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// The last sync checkpoint of a folder, or nil when it was never synced.
    package func folder(account: String, folder: String) throws -> FolderSyncState? {
        try snapshot.get(SyncStateProjector.foldersTable, Key(account, folder).bytes)
    }

    /// How many times a folder was recorded removed (`FolderRemoved`): its generation, 0 for one never removed.
    package func generation(account: String, folder: String) throws -> Int {
        try snapshot.get(SyncStateProjector.removalsTable, Key(account, folder).bytes) ?? 0
    }

    /// How many server copies of a folder the log holds.
    package func count(account: String, folder: String) throws -> Int {
        try snapshot.get(SyncStateProjector.countsTable, Key(account, folder).bytes) ?? 0
    }

    /// The server copies of a folder the log holds, by UID.
    package func copies(account: String, folder: String) throws -> [UInt32: SyncedCopy] {
        var out: [UInt32: SyncedCopy] = [:]
        try snapshot.scan(SyncStateProjector.copiesTable, prefix: Key(account, folder).bytes) { _, copy in
            out[copy.uid] = copy
            return true
        }
        return out
    }

    /// The server copy at `uid` in a folder, if the log holds one.
    package func copy(account: String, folder: String, uid: UInt32) throws -> SyncedCopy? {
        try snapshot.get(SyncStateProjector.copiesTable, SyncStateProjector.copyKey(account: account, folder: folder, uid: uid))
    }

    /// The UIDs of a folder's server copies, ascending; nil when the folder holds more than `limit` (nothing read).
    package func uids(account: String, folder: String, limit: Int) throws -> [UInt32]? {
        guard try count(account: account, folder: folder) <= limit else { return nil }
        var out: [UInt32] = []
        try snapshot.scan(SyncStateProjector.copiesTable, prefix: Key(account, folder).bytes) { _, copy in
            out.append(copy.uid)
            return out.count <= limit
        }
        return out.count <= limit ? out.sorted() : nil
    }

    /// The server copy (folder, UID, flags as the server has them) of an email, if the sync engine knows one.
    package func copy(account: String, emailID: String) throws -> (folder: String, copy: SyncedCopy)? {
        guard let at = try snapshot.get(SyncStateProjector.emailsTable, Key(emailID).bytes),
              let copy = try snapshot.get(SyncStateProjector.copiesTable,
                                          SyncStateProjector.copyKey(account: account, folder: at.folder, uid: at.uid)),
              copy.emailID == emailID
        else { return nil }
        return (at.folder, copy)
    }
}
