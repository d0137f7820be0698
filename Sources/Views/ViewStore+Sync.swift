import EventModel
import Projections

extension ViewStore {
    /// Every account, by name.
    public func accountList() throws -> [AccountRecord] {
        try prefixed("accounts.list", [], as: AccountRecord.self).map(\.1)
    }

    /// The account named `name`, or nil.
    public func account(named name: String) throws -> AccountRecord? {
        try value("accounts.list", Key(name).bytes, as: AccountRecord.self)
    }

    /// The last sync checkpoint of a folder, or nil when it was never synced.
    public func syncState(account: String, folder: String) throws -> FolderSyncState? {
        try value("sync.folders", Key(account, folder).bytes, as: FolderSyncState.self)
    }

    /// How many server copies of a folder the log holds.
    public func syncedCount(account: String, folder: String) throws -> Int {
        try value("sync.counts", Key(account, folder).bytes, as: Int.self) ?? 0
    }

    /// The server copies of a folder the log holds, by UID.
    public func syncedCopies(account: String, folder: String) throws -> [UInt32: SyncedCopy] {
        var out: [UInt32: SyncedCopy] = [:]
        for (_, copy) in try prefixed("sync.copies", Key(account, folder).bytes, as: SyncedCopy.self) { out[copy.uid] = copy }
        return out
    }
}
