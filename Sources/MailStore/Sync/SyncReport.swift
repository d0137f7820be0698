/// What a sync of one account did.
public struct SyncReport: Sendable, Equatable, Encodable {
    /// The account name.
    public var account: String
    /// Folder events (`FolderDiscovered`, `FolderRemoved`) appended.
    public var folderEvents = 0
    /// Each folder synced.
    public var folders: [FolderSyncReport] = []
    /// Wall-clock seconds.
    public var seconds = 0.0

    public init(account: String) { self.account = account }

    /// Every event appended.
    public var events: Int { folderEvents + folders.reduce(0) { $0 + $1.events } }
    /// New copies over all folders.
    public var received: Int { folders.reduce(0) { $0 + $1.received } }
}
