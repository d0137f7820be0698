/// What a sync of one account did.
public struct SyncReport: Sendable, Equatable, Encodable {
    /// The account name.
    public var account: String
    /// Folder events (`FolderDiscovered`, `FolderRemoved`) appended.
    public var folderEvents = 0
    /// The pending actions written back first.
    public var actions = WriteBackReport()
    /// Sent messages filed in Sent that an earlier send could not file.
    public var sentFiled = 0
    /// Sent messages still not filed in Sent after this sync, and why (``sentUnfiledReason``): no Sent folder on the
    /// server (create one), or the APPEND failed. They are tried again by the next sync or `outbox send`.
    public var sentUnfiled = 0
    /// Why ``sentUnfiled`` messages are not filed; nil when none waits.
    public var sentUnfiledReason: String?
    /// Each folder synced.
    public var folders: [FolderSyncReport] = []
    /// Wall-clock seconds.
    public var seconds = 0.0
    /// Server folders not synced because their name is another folder's but for its Unicode form (NFC "Café" beside
    /// NFD "Café"): the store tells folders by name, and two it cannot tell apart would merge; the first listed is synced.
    public var foldersAlike: [String] = []
    /// Folders not synced because the server refused them (a NO to their EXAMINE or their own commands); the others
    /// were synced. A one-shot `sync` exits 5 after the rest (docs/cli.md); a watch tries them again with a backoff.
    public var failedFolders: [FolderSyncFailure] = []
    /// Folders whose role the listing changed, each recorded with its `FolderDiscovered` (``FolderRoleChange``).
    public var roleChanges: [FolderRoleChange] = []
    /// The personal namespace's root named with `--folder` and not synced: empty, or the Inbox's mailbox under another
    /// name (``NamespaceRootSkip``); nil otherwise.
    public var namespaceRootNotSynced: NamespaceRootSkip?

    public init(account: String) { self.account = account }

    /// Every event appended.
    public var events: Int { folderEvents + folders.reduce(0) { $0 + $1.events } }
    /// Whether anything happened (events appended or actions written back).
    public var changed: Bool { events > 0 || actions != WriteBackReport() }
    /// New copies over all folders.
    public var received: Int { folders.reduce(0) { $0 + $1.received } }
}
