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
    /// The sequences of the view snapshots kept for time travel (this build's schema), oldest first.
    public var snapshotSequences: [UInt64] = []
    /// Their bytes on disk together.
    public var snapshotBytes: Int = 0
    /// The bytes of the past views the last time travel kept (`PastViews`), 0 when none.
    public var pastViewsBytes: Int = 0
    /// The size of the serving generation's views file.
    public var viewsFileBytes: Int = 0
    /// The size of the search index file (`views/search/index.sqlite`), 0 when there is none.
    public var searchIndexBytes: Int = 0
    /// The size of the log's data file.
    public var logFileBytes: Int = 0

    /// Everything the store takes on disk: the log, the views, the search index, the snapshots and past views.
    public var totalBytes: Int { logFileBytes + viewsFileBytes + searchIndexBytes + snapshotBytes + pastViewsBytes }
}

extension ViewStore {
    /// The state of the views of `store` as found on disk (nil when none are built yet), opened read-only.
    package static func status(store: StoreDirectory, log: EventLog) throws -> ViewsStatus? {
        guard let views = try openCurrent(root: store.viewsPath, log: log, catalog: .standard, readOnly: true, notice: { _ in })
        else { return nil }
        let snapshots = ViewSnapshots(viewsRoot: store.viewsPath, catalog: .standard, log: log).list().mine
        return ViewsStatus(generation: (views.path as NSString).lastPathComponent, checkpoints: try views.checkpoints(),
                           quarantined: try views.quarantined(), snapshotSequences: snapshots.map(\.sequence),
                           snapshotBytes: snapshots.reduce(0) { $0 + $1.bytes }, pastViewsBytes: PastViews.bytes(viewsRoot: store.viewsPath),
                           viewsFileBytes: Environment.fileSize(Environment.dataFile(views.path)) ?? 0,
                           searchIndexBytes: Environment.fileSize(store.viewsPath + "/search/index.sqlite") ?? 0,
                           logFileBytes: Environment.fileSize(Environment.dataFile(log.environment.path)) ?? 0)
    }

    /// Runs `body` over the current generation of `store` as it is on disk (opened read-only, nothing folded
    /// or written); nil when no views are built yet.
    package static func readCurrent<R>(store: StoreDirectory, log: EventLog, _ body: (Snapshot) throws -> R) throws -> R? {
        guard let views = try openCurrent(root: store.viewsPath, log: log, catalog: .standard, readOnly: true, notice: { _ in })
        else { return nil }
        return try views.read(body)
    }
}
