import EventLog
import EventModel
import Foundation
import LMDB
import SearchIndex
import Views

/// A mail store: the embeddable entry point of the library (the CLI is built on it).
///
/// It owns the store folder, its event log and its views (opened when first needed). Everything the
/// library writes goes through `commit(_:blobs:)`, which appends and folds the views.
public final class MailStore: @unchecked Sendable {
    /// The program name and version written into new stores.
    public static let version = "mailstore 0.1.0"

    /// The store folder.
    public let directory: StoreDirectory
    /// The event log.
    package let log: EventLog
    /// Told when opening the views rebuilds one (missing, corrupt, another schema version).
    let notice: @Sendable (String) -> Void
    /// Guards `openedViews`.
    let viewsLock = NSLock()
    /// The views, once opened.
    var openedViews: ViewStore?
    /// For a store as it was at a past sequence (`asOf`): that sequence, and a scratch folder removed with it (its
    /// views when they were folded from the log's start; a search index folded up to the point), made where first
    /// used. Such a store refuses to commit.
    let snapshot: (scratch: ScratchFolder, sequence: UInt64)?
    /// Guards `privateSearchIndex`.
    let searchIndexLock = NSLock()
    /// The private search index `buildSearchIndex` built for a store whose index folder cannot be written (not kept on
    /// disk, removed when released): this store's searches, and its `asOf` stores', search it rather than build it again.
    var privateSearchIndex: SearchIndex?

    init(directory: StoreDirectory, log: EventLog, notice: @escaping @Sendable (String) -> Void = { _ in },
         views: ViewStore? = nil, snapshot: (scratch: ScratchFolder, sequence: UInt64)? = nil, privateSearchIndex: SearchIndex? = nil) {
        self.directory = directory
        self.log = log
        self.notice = notice
        self.openedViews = views
        self.snapshot = snapshot
        self.privateSearchIndex = privateSearchIndex
    }

    deinit {
        // The store's end waits for a window's close its views left running, so that they go here and now: let go
        // while the close still held them for a call, they would end on the close's own thread, after this store.
        openedViews?.waitForPendingClose()
        if let scratch = snapshot?.scratch {
            openedViews = nil
            scratch.remove()
        }
    }

    /// Creates a new store at `path` and records `StoreInitialized` as its first event.
    public static func create(at path: String) throws -> MailStore {
        try create(at: path, logOptions: logOptions)
    }

    /// How the product opens the log (`create`, `open`): its pages kept to the resident budget, a fault mapping
    /// one page, not 64 KiB or 2 MiB of them (`noFaultAround`).
    static var logOptions: Environment.Options {
        var options = Environment.Options()
        options.noFaultAround = true
        return options
    }

    /// Creates a new store at `path` with the log opened with `logOptions` (tests and tools tune the map).
    package static func create(at path: String, logOptions: Environment.Options) throws -> MailStore {
        let dir = StoreDirectory(path: path)
        try dir.create()
        let log = try EventLog(store: dir, options: logOptions, creating: true)
        let initEvent = StoreInitialized(formatVersion: StoreDirectory.formatVersion, createdBy: MailStore.version)
        let store = MailStore(directory: dir, log: log)
        try store.commit([NewEvent(event: .storeInitialized(initEvent), account: "", stream: .store, actor: .system,
                                   expectedVersion: .noStream)])
        return store
    }

    /// Opens the existing store at `path`.
    ///
    /// `bulk` opens the log without an fsync per commit (`MDB_NOSYNC`, for imports, which flush on every
    /// way out, an error included): a killed process still loses nothing committed, since the pages are in
    /// the OS cache. A crash of the machine before the flush may lose the last batches and, on a file
    /// system that does not keep write order, may corrupt the log (`mailstore verify` finds it); re-running
    /// the import appends exactly what is missing. `notice` is told when opening the views rebuilds one.
    ///
    /// `lookups`: the caller reads the log by lookups (its head, a record or two), not by scans, as a page of a view
    /// does: the log is opened without the kernel's read-ahead, so each of those few faults reads its one page and
    /// not the 8 MiB around it (this project's test machine: a first page from a cold cache 0.25-0.32 s instead of
    /// 0.39-0.46 s at a million messages, 0.28-0.33 s at 100K). A scan through such a store (views caught up with many new events) faults
    /// its records in one page at a time.
    public static func open(at path: String, readOnly: Bool = false, bulk: Bool = false, lookups: Bool = false,
                            notice: @escaping @Sendable (String) -> Void = { _ in }) throws -> MailStore {
        let dir = StoreDirectory(path: path)
        var options = logOptions
        options.readOnly = readOnly
        options.noSync = bulk
        // Imports touch the indexes at random: no read-ahead, so only the pages touched are mapped.
        options.noReadAhead = bulk || lookups
        let log = try EventLog(store: dir, options: options)
        // A store's log begins with the `StoreInitialized` event `init` records: a log without it (an empty one, or
        // another store's data in its place) is not this store's, and would be taken for a store starting over.
        switch try log.firstRecord() {
        case nil:
            throw StoreError.notALog(file: Environment.dataFile(dir.logPath), why: "it holds no events, not even the "
                + "StoreInitialized event `mailstore init` records first (if an init was interrupted, remove the store folder "
                + "and run `mailstore init` again)")
        case let first? where first.sequence != 1 || (first.type != nil && first.type != .storeInitialized):
            throw StoreError.notALog(file: Environment.dataFile(dir.logPath), why: "its first record (sequence \(first.sequence)) "
                + "is not the StoreInitialized event `mailstore init` records first")
        default:
            break
        }
        // What killed processes left in the store's scratch folder (a `verify --views` at 1M: ~4.7 GB) goes.
        if !readOnly { ScratchFolder.removeAbandoned(in: dir) }
        let store = MailStore(directory: dir, log: log, notice: notice)
        store.withholdCredentialVariables()
        return store
    }
}
