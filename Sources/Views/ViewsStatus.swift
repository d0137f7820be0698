import EventLog
import Foundation
import LMDB
import Projections

/// The state of a store's views as found on disk, read without folding or writing anything.
public struct ViewsStatus: Sendable {
    /// The generation serving readers (`gen-N`).
    public var generation: String
    /// Each view's checkpoint (the last log sequence folded into it).
    public var checkpoints: [String: UInt64]
    /// The events the views could not fold (at most 1,000).
    public var quarantined: [QuarantinedEvent]
    /// The windows of the views' history closed so far (time travel reads the views at any point from them).
    public var historyWindows: Int = 0
    /// The sequence the last of them ends at (nil: none closed yet).
    public var historyThrough: UInt64?
    /// The window holding the most events (the latest of those as long): its end and how many (a look just before its
    /// end folds one fewer).
    public var historyLongestWindow: (end: UInt64, events: UInt64)?
    /// The bytes the history's pages take in the views file (part of `viewsFileBytes`).
    public var historyBytes: Int = 0
    /// Whether the views keep a history (false for a generation written before histories were kept).
    public var keepsHistory = false
    /// The size of the serving generation's views file (the views and their history).
    public var viewsFileBytes: Int = 0
    /// The size of the search index file (`views/search/index.sqlite`) and of a build of it kept aside to be gone on with
    /// (`index.sqlite.partial`, left by a search whose time limit stopped the build), 0 when there is none.
    public var searchIndexBytes: Int = 0
    /// The size of the log's data file.
    public var logFileBytes: Int = 0

    /// The most events a window of these views' history holds: `historyWindowEvents`, or what
    /// `MAILSTORE_HISTORY_WINDOW` sets.
    public var windowEvents: UInt64 = ViewsStatus.historyWindowEvents

    /// The most events a window of the history holds (a look at a past point folds at most that many).
    public static var historyWindowEvents: UInt64 { ViewHistory.windowEvents }

    /// Everything the store takes on disk: the log, the views with their history, the search index.
    public var totalBytes: Int { logFileBytes + viewsFileBytes + searchIndexBytes }
}

extension ViewStore {
    /// The state of the views of `store` as found on disk (nil when none are built yet), opened read-only.
    package static func status(store: StoreDirectory, log: EventLog) throws -> ViewsStatus? {
        guard let views = try openCurrent(root: store.viewsPath, log: log, catalog: .standard, readOnly: true, notice: { _ in })
        else { return nil }
        let windows = try views.historyWindows()
        return ViewsStatus(generation: (views.path as NSString).lastPathComponent, checkpoints: try views.checkpoints(),
                           quarantined: try views.quarantined(), historyWindows: windows.count, historyThrough: windows.last,
                           historyLongestWindow: windows.longest,
                           historyBytes: try views.historyBytes(), keepsHistory: try views.hasHistory(),
                           viewsFileBytes: Environment.fileSize(Environment.dataFile(views.path)) ?? 0,
                           searchIndexBytes: (Environment.fileSize(store.viewsPath + "/search/index.sqlite") ?? 0)
                               + (Environment.fileSize(store.viewsPath + "/search/index.sqlite.partial") ?? 0),
                           logFileBytes: Environment.fileSize(Environment.dataFile(log.environment.path)) ?? 0,
                           windowEvents: views.historyWindowEvents)
    }

    /// Runs `body` over the current generation of `store` as it is on disk (opened read-only, nothing folded
    /// or written); nil when no views are built yet.
    package static func readCurrent<R>(store: StoreDirectory, log: EventLog, _ body: (Snapshot) throws -> R) throws -> R? {
        guard let views = try openCurrent(root: store.viewsPath, log: log, catalog: .standard, readOnly: true, notice: { _ in })
        else { return nil }
        return try views.read(body)
    }
}
