import EventLog
import EventModel
import Foundation
import LMDB
import Projections
import Synchronization

/// The views environment: every projector's tables and checkpoints, kept apart from the log and
/// rebuilt from it whenever needed.
///
/// Generations: `STORE/views/CURRENT` names the folder (`gen-N`) that serves readers. A rebuild
/// (`replay`, a schema change, missing or damaged files) builds `gen-N+1` while `gen-N` keeps serving,
/// then switches `CURRENT` atomically (rename) and removes the old folder.
///
/// Concurrency (between processes): `views/BUILD` is held exclusively by whoever builds a generation, so
/// builds serialize (a second one waits, and says so) and a `*.building` folder found while holding it
/// belongs to a dead process and is removed; `views/LOCK` is held shared while a process opens the
/// current generation and exclusively for the switch, so no open ever finds its generation removed. A
/// process keeps the generation it opened even after a switch (its files stay readable until it closes).
public final class ViewStore: @unchecked Sendable {
    /// The views environment of the current generation.
    package let environment: Environment
    /// The folder of that environment.
    package let path: String
    /// The views folded here.
    package let catalog: ViewCatalog
    let log: EventLog
    /// Every table of every view, and (when the views keep a history) each one's history table (`ViewHistory`).
    let databases: [String: Database]
    let meta: Database
    let quarantine: Database
    /// The tables readers may name: every view's, and the quarantine.
    private let readable: [String: Database]
    /// A private copy of the views (read-only store) removed when this store is released.
    private let temporaryFolder: String?
    /// The scratch folder `temporaryFolder` is (a private copy's), its lock held while these views live.
    private var scratchOwner: ScratchFolder?
    /// Each view table's history table, by the view table's name; empty when these views keep no history (a scratch
    /// fold, a read-only generation written before histories were kept).
    let historyTables: [String: Database]
    /// The windows of the history (`ViewHistory.windowsTable`), when these views keep one.
    let windows: Database?
    /// The live views' changes in the open window (`ChangeLog`), when these views keep a history.
    let changeLog: ChangeLog?
    /// Where a generation being built stages its history's versions (`StagedRuns`), when these views keep a history.
    let staging: Database?
    /// The runs staged so far by this store's folds.
    var staged = StagedRuns()
    /// For views at a past point (`past(at:)`): that point, the window their history is read at, and the writes
    /// of the events folded after the window's end. Such a store only reads.
    let pastPoint: PastPoint?
    /// Events folded since the views' pages were last released from this process (see `fold`).
    private var foldedSinceRelease = 0
    /// Payload bytes of the events folded since then.
    private var foldedBytesSinceRelease = 0
    /// The views built from empty by this object alone (`buildsFromEmpty`), each with its tables' filters.
    private var absentKeyFilters: [String: AbsentKeyFilters] = [:]
    /// The views of a generation being built whose history's versions are staged as runs in `views.staging` and
    /// merged into their history tables when it is published (`LMDBKeyValueStore.stagesHistory`, `publish`).
    package internal(set) var stagedViews: Set<String> = []
    /// The folds (projectors and their tables) the last `fold` used, kept for the next one, under `keptLock`:
    /// a user's action folds one event touching thousands of records, and tables made afresh for it grew
    /// their caches from empty every time (see `keep`).
    private var keptFolds: [Fold]?
    private let keptLock = NSLock()
    /// Whether big batches fold some views on a second thread (`secondCoreViews`). Off when the caller keeps
    /// the other core busy itself (a replay or verification that rebuilds the search index meanwhile).
    package var foldsOnTwoCores = true
    /// Where `foldsOnTwoCores` is off because another job has the other core: asked before each batch whether that
    /// job has ended (the search index's build beside a replay); from then on big batches fold on two cores as
    /// `foldsOnTwoCores` has them (a fold at a lower priority than that job can end after it: `MailStore.replay`).
    package var secondCoreFree: (@Sendable () -> Bool)?
    /// For views built by `scratch`: the sequence their fold began at (kept past views, a snapshot, or 0).
    package var startedFrom: UInt64 = 0
    /// Whether folds hold their writes in memory across batches and write them out in key order (`WriteBehind`):
    /// only for a private folder that is emptied when its fold does not end (a generation being built, time
    /// travel's), never for the live generation. Set before the first fold.
    var writesBehind = false
    /// Whether write-outs spill sorted runs to files, merged into the B-trees at `spillBudget` and at the end of each
    /// fold (`SpilledRuns`), rather than put into the B-trees each time: only with `writesBehind`, for a generation
    /// being built. Set before the first fold.
    var spillsRuns = false
    /// The bytes of spilled runs that start a merge (`spillBudget`; tests merge more often).
    var spillLimit = ViewStore.spillBudget
    /// Whether a fold leaves the runs spilled since the last merge where they are, for `publish` to merge into the copy
    /// it writes (the tables read in key order from the B-trees and the runs together, appended), rather than merging
    /// them into the B-trees at its end: a generation being built is read only by its publishing after its fold, and
    /// the last merge put every entry of a 100K replay's views into B-trees that `publish` read straight back out (its
    /// B-trees were still empty: 96 MiB of runs hold them all). Set before the first fold.
    var mergesRunsWhenPublished = false
    /// The most entries `publish` writes per transaction (`publishChunk`; tests write fewer).
    var publishChunkEntries = ViewStore.publishChunk
    /// Whether `publish(to:)` copies tables on two threads (tests turn it off to compare).
    var publishesOnTwoThreads = true
    /// Whether the spilled runs are merged into the B-trees on two threads (`mergeSpilled`; tests turn it off to compare).
    var mergesOnTwoThreads = true
    /// The most spilled changes `publish` holds copied at a time (`writeBehindChunkByPwrite`; tests hold fewer).
    var publishPartEntries = ViewStore.writeBehindChunkByPwrite
    /// The runs spilled and not yet merged (made by the first fold that spills).
    private(set) var spilled: SpilledRuns?
    /// The runs spilled and the merges made so far.
    package private(set) var spillCounts = (runs: 0, merges: 0)
    /// Set when a fold writing behind failed with writes not yet written out: the folder's checkpoints then run
    /// ahead of its B-trees, and nothing more may be folded into it or read from it.
    private var lostWritesBehind = false
    /// The history window of the changes held behind by views built from their history (`writeOut`): they are written
    /// out at each window's end, so they all belong to one window.
    var heldWindow: UInt32 = 0
    /// The staged key being written (`stage`).
    var stagingKey: [UInt8] = []
    /// The most events a batch folds (`batchSize`; tests fold in smaller batches).
    var batchEvents = ViewStore.batchSize
    /// The bytes held behind that start a write-out (`writeBehindBudget`; tests write out more often).
    var writeBehindLimit = ViewStore.writeBehindBudget
    /// The most events a window of the history holds (`ViewHistory.windowEvents`; tests use small windows).
    package var historyWindowEvents = ViewHistory.windowEvents
    /// The bytes of versions after which a window closes (`ViewHistory.windowBytes`).
    package var historyWindowBytes = ViewHistory.windowBytes
    /// Whether a live fold whose last batch makes the open window due leaves its close (writing the window's versions:
    /// ~110 ms after archiving 1,000 threads five times over at 50K threads) to a thread of its own, after the fold
    /// returns, instead of inside the batch's transaction (`closeWindowAfterFold`). On by default; off, every close is
    /// in its batch (tests comparing the two).
    package var closesWindowsAfterFold = true
    /// The close a fold left running (`closeWindowAfterFold`), under `pendingCloseLock`.
    var pendingClose: BackgroundWork<Void>?
    /// The end of the window that close closes, and the signal of its first read (`waitForCloseRead`), under
    /// `pendingCloseLock`.
    var pendingCloseEnd: UInt64?
    var pendingCloseRead: DispatchSemaphore?
    /// The versions a close left running writes per write transaction (`closeChunk`; tests write fewer).
    var closeChunkKeys = ViewStore.closeChunk
    /// Runs before each write transaction of a close left running (tests hold a close there, or make it fail there).
    var beforeCloseChunk: (() throws -> Void)?
    /// What the last close left running failed with, when it failed (under `pendingCloseLock`): the next fold closes
    /// the window inside its batch instead, so a failure that lasts (a full disk) reaches that fold's caller.
    var pendingCloseFailure: Error?
    /// Runs in a window's close before it writes, in a batch or left running (tests make closes fail with it). Set only
    /// while no close is left running.
    var beforeWindowCloses: (() throws -> Void)?
    let pendingCloseLock = NSLock()

    /// The most memory a fold writing behind holds (`WriteBehind`, all its views together, counted as keys, values
    /// and `WriteBehind.entryOverhead` each; values replaced, dropped at a commit once they are half a table's buffer,
    /// can double it) before it writes them out. Each write-out copies every leaf its keys
    /// fall in once, so the bigger, the fewer copies; at a million messages 16 MiB raised time travel's peak
    /// from ~90 to ~122 MB (32 MiB: ~154 MB, for no more speed).
    static let writeBehindBudget = 16 << 20
    /// The same for a generation being built (`replay`, a schema upgrade), whose peak memory at a million messages is
    /// nearer the 200 MB bound: 8 MiB held raised a 1M replay's peak from 164 to 168-170 MiB (16 MiB: 190 MiB).
    static let rebuildWriteBehindBudget = 8 << 20
    /// Entries a write-out puts per transaction into views written through the map: each transaction's commit
    /// touches every page it changed again, so its mapped pages are bounded by this many leaves (and their branch
    /// pages), whatever the held writes.
    static let writeBehindChunk = 8_192
    /// The same for views written by `pwrite` (`writeMap: false`: a generation being built), where LMDB holds the
    /// pages a transaction changes in the heap until its commit and keeps them for later transactions: at most
    /// 2,048 leaves (8 MiB) and their branch pages. At 1M messages a `replay` peaked at 174 MiB with 2,048 against
    /// 185 MiB with 8,192, and ran no slower.
    static let writeBehindChunkByPwrite = 2_048
    /// A part of changes copied out of spilled runs (merged into the B-trees, or read by `publish`) also ends at
    /// this many bytes of keys and values: its write transaction holds the pages it dirties in memory until it commits,
    /// and 2,048 long threads' records (~1 MB each, `ThreadBound`) had been 140 MB in one.
    static let partBytes = 8 << 20
    /// The bytes of spilled runs (`SpilledRuns`) a generation being built holds on disk before merging them into its
    /// B-trees: each merge copies the leaves its keys fall in once, so the bigger, the fewer copies; the memory it
    /// costs is 12-24 bytes per key spilled (`SpillIndex`) and each ~4 KiB block's first key.
    static let spillBudget = 96 << 20
    /// The folder of a build's spilled runs, inside the generation's folder.
    static let spillFolder = "spill"

    /// Events folded per write transaction during catch-up. 20K bounds a rebuild's anonymous memory (100K
    /// batches: ~430 MiB at 100K messages); with generated mail `batchBytes` ends a batch first. Smaller batches save
    /// little more memory and cost time on big stores: 5,000 folded a 1M-message log in 276 s against 223 s,
    /// since a batch's events then share fewer of the pages copied on write.
    static let batchSize = 20_000
    /// A batch also ends at this many payload bytes of events, so memory is bounded by design whatever
    /// the events' sizes: ~7,000 generated events. The decoded events, the records they touch and the pages the
    /// commit writes grow with it: at 100K messages 4 MiB (~14,000 events) peaked at 184-196 MiB in
    /// `verify --views` and 174-181 MiB in `replay`, 2 MiB at 163-174 and 153-162 MiB for ~0.3-0.6 s more
    /// of 15-23 s (8 MiB had left a replay ~30 MiB over 200 MB). At 1M, 2 MiB cost ~6% more time (260 s
    /// against 246 s) and lowered the peak from 427 to 405 MiB (the commit's pages, see docs/benchmarks.md).
    static let batchBytes = 2 << 20
    /// The views' pages are released once this many events have been folded in batches too small for a
    /// releaser (one action's catch-up, a sync's small batches).
    static let releaseInterval = 4_096
    /// A walk of whole tables (`verify --views`' comparison) also releases the pages it mapped past this many bytes
    /// of values: 4,096 entries of long threads' records (~1 MB each) had mapped 264 MB.
    static let releaseBytes = 16 << 20
    /// A batch of at least this many events has its views' pages released every `releaseEvery` while it is
    /// folded and written (`ResidentPageReleaser`: a thread started per batch).
    static let releaserMinimum = 1_024
    /// A batch of fewer events but this many payload bytes has a releaser too: 60 messages naming 1,000 recipients
    /// each (2 MiB) write tens of thousands of keys, and a `verify --views` of 2,000 of them had mapped 284 MB of its
    /// scratch views' pages between two releases.
    static let releaserMinimumBytes = 1 << 20
    /// How often the resident size is checked while a big batch is written, its views' pages unmapped when over
    /// the budget (each release costs a read of /proc/self/maps and the minor faults of the pages touched
    /// again). A write transaction maps tens of MiB in 10 ms: at 10 ms the overshoot kept a 100K replay over 200 MB.
    package static let releaseEvery = DispatchTimeInterval.milliseconds(2)
    /// The versions a window's close left running after a fold writes per write transaction (`closeWindowAfterFold`):
    /// a fold that comes meanwhile waits for at most one such transaction (~7-15 ms: a whole close of ~90,000 versions
    /// at 50,000 threads took 73-168 ms of CPU), where it had waited for the whole close.
    static let closeChunk = 8_192
    /// The views map of a new store (allocated on disk).
    static let initialMapSize = 4 << 20
    /// The room a fold makes in the map before a batch's write transaction: 8 KiB for each event and each
    /// copy an action changes (a B-tree page or two copied on write), between 1 MiB and 1 GiB. A batch that
    /// needs more hits `MDB_MAP_FULL`, grows the map and runs again; growth by a quarter leaves room after it.
    static func batchRoom(events: Int, copies: Int) -> Int { min(max((events + copies) * (8 << 10), 1 << 20), 1 << 30) }
    static let currentFile = "CURRENT"
    static let lockFile = "LOCK"
    static let buildLockFile = "BUILD"
    package static let metaTable = "views.meta"
    static let quarantineTable = "views.quarantine"

    /// Opens the views environment at `path`. `history`: whether its folds keep the views' history (`ViewHistory`;
    /// a generation does, a scratch fold does not). A read-only store reads the history when the file has one.
    /// `writeMap: false` (a generation being built, or written out in key order by `publish`): pages written by
    /// `pwrite` at each commit rather than through the map, where each page changed would fault.
    init(path: String, log: EventLog, catalog: ViewCatalog = .standard, readOnly: Bool = false,
         temporaryFolder: String? = nil, history: Bool = true, writeMap: Bool = true) throws {
        var o = Environment.Options()
        // The map is allocated on disk (`writeMap` below): it starts small and grows with the views, a fold
        // reserving room for each batch first (`batchRoom`).
        o.mapSize = ViewStore.initialMapSize
        let tables = catalog.tables
        o.maxDatabases = UInt32(2 * tables.count + 8)
        o.readOnly = readOnly
        // Views are rebuilt from the log: no fsync per commit (MDB_NOSYNC). A killed process loses nothing; a
        // machine crash may lose the last batches, which the next open folds again from the checkpoint written
        // with them, or, on a file system that does not keep write order, damage the file: a file that fails to
        // open is rebuilt, and `verify --views` finds any other difference (`replay` rebuilds).
        o.noSync = true
        // Folds and reads touch the views' B-trees at random: no read-ahead (MADV_RANDOM). The pages they touch
        // stay mapped, which is why folds release the map's pages from time to time (`releaseResidentPages`).
        o.noReadAhead = true
        // A big batch dirties thousands of pages of scattered B-trees: written into the map, they are page cache
        // rather than heap, so a fold's memory does not grow with the store.
        o.writeMap = writeMap
        // A fault maps the page it touches, not its cached neighbours too (at 1M messages the releasing thread
        // could not keep up with ~16 pages mapped per fault: 380-550 MiB peaks in `replay`).
        o.noFaultAround = true
        do {
            environment = try Environment(path: path, options: o)
            let create: Database.Flags = readOnly ? [] : .create
            var dbs = try environment.openDatabases(tables + [ViewStore.metaTable], flags: create)
            meta = dbs.removeValue(forKey: ViewStore.metaTable)!
            if readOnly {
                // Older generations have no quarantine table: a read-only open goes on without it.
                let q = try? environment.openDatabases([ViewStore.quarantineTable], flags: [])
                quarantine = q?[ViewStore.quarantineTable] ?? meta
            } else {
                quarantine = try environment.openDatabase(ViewStore.quarantineTable, flags: create)
            }
            if quarantine != meta { dbs[ViewStore.quarantineTable] = quarantine }
            readable = dbs
            var historyByTable: [String: Database] = [:]
            var windowsTable: Database?
            var changesTable: Database?
            var stagingTable: Database?
            if history {
                // A read-only open of a file written before histories were kept finds none: it has no history.
                let names = tables.map(ViewHistory.table) + [ViewHistory.windowsTable, ViewHistory.changesTable, ViewHistory.stagingTable]
                let opened = readOnly ? try? environment.openDatabases(names, flags: []) : try environment.openDatabases(names, flags: create)
                if let opened {
                    windowsTable = opened[ViewHistory.windowsTable]
                    changesTable = opened[ViewHistory.changesTable]
                    stagingTable = opened[ViewHistory.stagingTable]
                    for t in tables { historyByTable[t] = opened[ViewHistory.table(t)] }
                    for (name, d) in opened { dbs[name] = d }
                }
            }
            databases = dbs.filter { $0.key != ViewStore.quarantineTable }
            historyTables = historyByTable
            windows = windowsTable
            changeLog = changesTable.map(ChangeLog.init)
            staging = stagingTable
        } catch let e as LMDBError where e.isCorruption {
            throw ViewError.damaged("\(path): \(e.operation): \(e.message)")
        }
        self.log = log
        self.path = path
        self.catalog = catalog
        self.temporaryFolder = temporaryFolder
        pastPoint = nil
        if let n = ViewStore.historyWindow(ProcessInfo.processInfo.environment["MAILSTORE_HISTORY_WINDOW"]) { historyWindowEvents = n }
        if windows != nil && !readOnly { try guarded { try markHistoryIfNew() } }
    }

    /// The window `MAILSTORE_HISTORY_WINDOW` sets (`text`: events, at least 1, cut to `ViewHistory.maxWindowEvents`);
    /// nil when unset. Anything else is warned about on stderr (once a process) and the default kept.
    static func historyWindow(_ text: String?) -> UInt64? {
        guard let text else { return nil }
        guard let n = UInt64(text.trimmingCharacters(in: .whitespaces)), n >= 1 else {
            if !historyWindowWarned.exchange(true, ordering: .relaxed) {
                var warning = "mailstore: warning: MAILSTORE_HISTORY_WINDOW is not a whole number of events of at least 1: using \(ViewHistory.windowEvents)\n"
                warning.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            }
            return nil
        }
        return min(n, ViewHistory.maxWindowEvents)
    }

    private static let historyWindowWarned = Atomic<Bool>(false)

    /// The views of `live` at a past point: the same environment, read through its history (`past(at:)`).
    init(pastOf live: ViewStore, catalog: ViewCatalog, point: PastPoint) {
        environment = live.environment
        path = live.path
        self.catalog = catalog
        log = live.log
        databases = live.databases
        meta = live.meta
        quarantine = live.quarantine
        readable = live.readable
        temporaryFolder = nil
        historyTables = live.historyTables
        windows = live.windows
        changeLog = nil
        staging = nil
        pastPoint = point
        foldsOnTwoCores = false
    }

    deinit {
        // A window's close still running after a fold uses this store: it ends (or fails) before the store goes.
        waitForPendingClose()
        if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) }
    }

    // MARK: - Reading

    /// Runs `body` with a consistent snapshot of every view (one short read transaction): projector
    /// readers (`ThreadsReader(snapshot)`, ...) are the way to read it. A damaged view file is reported as
    /// `ViewError.damaged` (rebuild with `mailstore replay`).
    package func read<R>(_ body: (Snapshot) throws -> R) throws -> R {
        try guarded {
            try environment.read { txn in
                let scope = TransactionScope(txn)
                defer { scope.end() }
                if let pastPoint {
                    let history = HistoryReader(scope: scope, tables: pastHistoryTables, window: pastPoint.window.number)
                    return try body(Snapshot(PastKeyValueStore(held: pastPoint.held, base: history)))
                }
                return try body(Snapshot(LMDBKeyValueStore(databases: readable, scope: scope)))
            }
        }
    }

    /// The views whose stored schema version differs from this build's; every view when they keep no history of
    /// this build's format (a generation written before histories were kept, or with another format), which a
    /// rebuild gives them.
    func staleViews() throws -> [String] {
        if pastPoint != nil { return [] }
        return try guarded { try environment.read { txn in
            if windows != nil, try txn.getBytes(meta, key: ViewHistory.formatKey) != ViewHistory.formatBytes || historyBehind(txn) {
                return catalog.types.map { $0.name.rawValue }
            }
            return try catalog.types.compactMap { type in
                guard let raw = try txn.getBytes(meta, key: Array(type.name.rawValue.utf8)), let m = ViewMeta.decode(raw) else { return nil }
                return m.schemaVersion == type.schemaVersion ? nil : type.name.rawValue
            }
        } }
    }

    /// The one sequence every view stands at, with this build's schema; nil when they differ or a view's
    /// schema is another (what a snapshot must be to stand for a point of the log).
    func uniformCheckpoint() throws -> UInt64? {
        guard try staleViews().isEmpty else { return nil }
        let cps = Set(try checkpoints().values)
        return cps.count == 1 ? cps.first : nil
    }

    /// The checkpoint of each view (0 when never built).
    package func checkpoints() throws -> [String: UInt64] {
        if let pastPoint { return Dictionary(uniqueKeysWithValues: catalog.types.map { ($0.name.rawValue, pastPoint.sequence) }) }
        return try guarded { try environment.read { txn in
            var out: [String: UInt64] = [:]
            for type in catalog.types {
                out[type.name.rawValue] = try txn.getBytes(meta, key: Array(type.name.rawValue.utf8)).flatMap(ViewMeta.decode)?.checkpoint ?? 0
            }
            return out
        } }
    }

    /// The events the views could not fold, oldest first (at most `limit`).
    package func quarantined(limit: Int = 1_000) throws -> [QuarantinedEvent] {
        guard quarantine != meta else { return Array(pastPoint?.quarantined.prefix(limit) ?? []) }
        var out: [QuarantinedEvent] = try environment.read { txn in
            var out: [QuarantinedEvent] = []
            try txn.withCursor(quarantine) { c in
                var e = try c.first()
                while let entry = e, out.count < limit {
                    if let q = QuarantinedEvent(key: Array(entry.key), value: Array(entry.value)) {
                        // At a past point: those quarantined live up to the window's end, then the tail's own.
                        if let pastPoint, q.sequence > pastPoint.window.end { break }
                        out.append(q)
                    }
                    e = try c.next()
                }
            }
            return out
        }
        if let pastPoint { out += pastPoint.quarantined.prefix(limit - out.count) }
        return out
    }

    // MARK: - Opening

    /// Opens the views of `store`, rebuilding them offline when they are missing, fail to open, or were
    /// written with another schema version, and folds the log's new events into them. `notice` is told
    /// about every rebuild and wait. On a store whose views folder cannot be written (a read-only
    /// filesystem), the views are read as they are, in a private copy caught up with the log when behind.
    ///
    /// Views at least `rebuildBehind` events behind the log, and by at least half of it, are rebuilt rather than
    /// caught up (see `rebuildBehind`); a catch-up of `catchUpNotice` events or more is told to `notice` first.
    package static func open(store: StoreDirectory, log: EventLog, catalog: ViewCatalog = .standard,
                            notice: (String) -> Void = { _ in }, rebuildBehind: UInt64 = ViewStore.rebuildBehind,
                            catchUpNotice: UInt64 = ViewStore.catchUpNotice,
                            progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        let root = store.viewsPath
        try checkFolder(root)
        if !FileManager.default.fileExists(atPath: root) {
            do { try StoreDirectory.makePrivateDirectory(root) } catch {
                return try openPrivateCopy(root: root, log: log, catalog: catalog, notice: notice, progress: progress)
            }
        }
        guard access(root, W_OK) == 0 else {
            return try openPrivateCopy(root: root, log: log, catalog: catalog, notice: notice, progress: progress)
        }
        // Half-built generations whose builder is gone (nobody holds the build lock) are removed, and so are the view
        // snapshots and past views older builds kept for time travel (the views' history replaces them).
        if let idle = FileLock.acquire(root + "/" + buildLockFile, exclusive: true, wait: false) {
            removeStaleBuilds(root)
            for retired in ["snapshots", "past"] where FileManager.default.fileExists(atPath: root + "/" + retired) {
                try? FileManager.default.removeItem(atPath: root + "/" + retired)
            }
            idle.unlock()
        }
        do {
            return try openAndCatchUp(root: root, log: log, catalog: catalog, notice: notice, rebuildBehind: rebuildBehind,
                                      catchUpNotice: catchUpNotice, progress: progress)
        } catch let e as ViewError {
            guard case .damaged(let detail) = e else { throw e }
            // Views are disposable: damaged files are rebuilt from the log, never restored.
            notice("the views are damaged (\(detail)); rebuilding them from the log")
            let views = try rebuild(root: root, log: log, catalog: catalog, notice: notice, progress: progress)
            try views.catchUp(progress: progress)
            return views
        }
    }

    /// The fewest events behind the log for which views are rebuilt rather than caught up, when they are also
    /// behind by at least half of the log. A rebuild folds into an empty generation (sorted runs, bulk-loaded) about
    /// 3x as fast per event as a catch-up folds into the live views: at 100K messages (200,010 events) views caught up
    /// from ~70,000 took 21-25 s, a rebuild of all 200,010 11.5 s (2026-12-03); a store that imported a big mailbox
    /// after its views were built is the usual case.
    package static let rebuildBehind: UInt64 = 50_000

    /// The fewest events behind the log for which opening the views says it is folding them in (a command that
    /// reads the views waits for it): ~1-2 s of a catch-up here (~12,000 events/s at 100K messages on 2026-12-04,
    /// 5,700 on a slow day), where a smaller one passes unnoticed. Up to `rebuildBehind` and half of the log a
    /// catch-up it is: at 1M messages up to ~1M events, minutes of a `project` that said nothing.
    package static let catchUpNotice: UInt64 = 20_000

    /// True when views `behind` events behind a log whose head is `head` are quicker rebuilt than caught up (`behind`
    /// past `head` counts as all of it).
    package static func rebuilds(behind: UInt64, head: UInt64, from minimum: UInt64) -> Bool {
        behind >= minimum && behind >= head - min(behind, head)
    }

    /// How many events the views in `views` are behind `log`'s head (their least checkpoint's distance).
    static func eventsBehind(_ views: ViewStore, log: EventLog) throws -> (behind: UInt64, head: UInt64) {
        let head = try log.head().sequence
        let least = try views.checkpoints().values.min() ?? 0
        return (head > least ? head - least : 0, head)
    }

    private static func openAndCatchUp(root: String, log: EventLog, catalog: ViewCatalog, notice: (String) -> Void,
                                       rebuildBehind: UInt64, catchUpNotice: UInt64,
                                       progress: ((UInt64, UInt64) -> Void)?) throws -> ViewStore {
        var views: ViewStore
        if let current = try openCurrent(root: root, log: log, catalog: catalog, notice: notice) {
            if let why = try current.logMismatch() {
                notice(why)
                // (Another process's rebuild finished meanwhile is taken: `rebuild` never takes views of another log.)
                views = try rebuild(root: root, log: log, catalog: catalog, unlessFresh: true, notice: notice, progress: progress)
            } else {
                views = current
            }
        } else {
            views = try rebuild(root: root, log: log, catalog: catalog, unlessFresh: true, notice: notice, progress: progress)
        }
        let stale = try views.staleViews()
        if !stale.isEmpty {
            if try !views.hasHistory() {
                notice("the views were written by a build that kept no history for time travel (--as-of); rebuilding them with one from the log")
            } else {
                notice("view schema changed for \(stale.joined(separator: ", ")); rebuilding \(stale.count == 1 ? "it" : "them") from the log")
            }
            views = try rebuild(root: root, log: log, catalog: catalog, only: stale, unlessFresh: true, notice: notice, progress: progress)
        }
        let (behind, head) = try eventsBehind(views, log: log)
        if rebuilds(behind: behind, head: head, from: rebuildBehind) {
            notice("the views are \(behind) events behind the log (of \(head)); rebuilding them from it, quicker than folding that many in")
            views = try rebuild(root: root, log: log, catalog: catalog, unlessBehindLess: rebuildBehind, notice: notice, progress: progress)
        } else if behind >= catchUpNotice {
            notice("the views are \(behind) events behind the log (of \(head)); folding them in")
        }
        try views.catchUpUnlessDiskFull(notice: notice, progress: progress)
        if let note = try? views.newerEventsNote() { notice(note) }
        return views
    }

    /// `catchUp`, except that on a full disk the views are left as they stand, behind the log, with a note: reading goes
    /// on (a write still fails: `MailStore.commit` folds them first). Every read command had failed on a full disk.
    package func catchUpUnlessDiskFull(notice: (String) -> Void, progress: ((UInt64, UInt64) -> Void)? = nil) throws {
        do {
            try catchUp(progress: progress)
        } catch let e as LMDBError where e.isDiskFull {
            let (left, head) = try ViewStore.eventsBehind(self, log: log)
            notice("the views are \(left) events behind the log (of \(head)) and cannot be brought up to date: the disk is full "
                   + "(\(e.operation)); shown as they stand: free space, and the next command folds the rest in")
        }
    }

    /// Runs `body`, reporting a damaged views file as `ViewError.damaged` (which says to replay).
    func guarded<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let e as LMDBError where e.isCorruption {
            throw ViewError.damaged("\(path): \(e.operation): \(e.message)")
        } catch let e as DecodeError {
            throw ViewError.damaged("\(path): a value does not decode: \(e)")
        }
    }

    /// Opens the current generation under the shared lock (so no switch removes it meanwhile); nil when
    /// there is none or it fails to open (told to `notice`).
    static func openCurrent(root: String, log: EventLog, catalog: ViewCatalog, readOnly: Bool = false,
                            notice: (String) -> Void) throws -> ViewStore? {
        let lock = FileLock.acquire(root + "/" + lockFile, exclusive: false, create: !readOnly)
        defer { lock?.unlock() }
        guard let gen = currentGeneration(root) else {
            if FileManager.default.fileExists(atPath: root + "/" + currentFile) {
                notice("views/\(currentFile) does not name a generation of the views; rebuilding them from the log")
            }
            return nil
        }
        let file = root + "/" + gen + "/data.mdb"
        guard FileManager.default.fileExists(atPath: file) else {
            notice("the views' files are missing; rebuilding them from the log")
            return nil
        }
        // An empty file would open as new, empty views folded again in place, without a word.
        if let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int, size == 0 {
            notice("the views file \(gen)/data.mdb is empty (cut short); rebuilding the views from the log")
            return nil
        }
        do {
            return try ViewStore(path: root + "/" + gen, log: log, catalog: catalog, readOnly: readOnly)
        } catch let e as LMDBError where e.isShortOfResources {
            // The process's limits, not the file: a rebuild would meet them too (or throw good views away). Said as it is.
            throw e
        } catch {
            // What was found, not the advice each error carries (restore, replay): the views are rebuilt here.
            let finding = switch error {
            case let e as DataFileError: e.finding
            case ViewError.damaged(let what): what
            default: "\(error)"
            }
            notice("the views in \(gen) fail to open (\(finding)); rebuilding them from the log (nothing in the log is lost)")
            return nil
        }
    }

    /// The views of a store whose views folder cannot be written: a private copy of the current
    /// generation (or a fresh build when it is missing, stale or damaged) in the temporary folder, caught
    /// up with the log, removed when released. Nothing in the store is written, deleted or re-moded.
    static func openPrivateCopy(root: String, log: EventLog, catalog: ViewCatalog, notice: (String) -> Void,
                                progress: ((UInt64, UInt64) -> Void)?) throws -> ViewStore {
        // In this user's `$TMPDIR/mailstore-scratch-UID/` (0700), its lock held while the views live: what a killed
        // process leaves there (a copy of the store's views) is removed by the next scratch folder made (it had stayed).
        let owner = ScratchFolder(store: nil, kind: "views")
        let folder = try owner.path()
        var copied = false
        if let current = try openCurrent(root: root, log: log, catalog: catalog, readOnly: true, notice: { _ in }),
           (try? current.staleViews().isEmpty) == true, (try? current.logMismatch()) == .some(nil) {
            copied = (try? current.environment.copy(to: folder)) != nil
        }
        notice(copied ? "the store's views folder is read-only: reading a private copy of the views"
                      : "the store's views folder is read-only: folding the views in a private folder")
        let views = try ViewStore(path: folder, log: log, catalog: catalog, temporaryFolder: folder)
        views.scratchOwner = owner
        try views.catchUp(progress: progress)
        return views
    }

    // MARK: - Folding

    /// One projector with its fold context during a catch-up.
    struct Fold {
        let name: String
        let schemaVersion: UInt32
        /// The fold's own store: bound to the write transaction, or (for a fold on the second core) to a
        /// read transaction of that thread while it applies the batch.
        let store: LMDBKeyValueStore
        let context: FoldContext
        let projector: any Projector
        /// The event types the projector folds (`Projector.handledEvents`): it is handed no other.
        let handles: EventTypeSet
    }

    /// The views folded on a second thread during big batches: the contacts view, about half of a fold's
    /// work on mail (every address's prefix entries and top lists).
    static let secondCoreViews: Set<String> = [ViewName.contacts.rawValue]
    /// Batches smaller than this fold on one thread (a thread and a read transaction cost more than they save).
    static let secondCoreMinimum = 2_048
    /// The views folded on a second thread when a batch's user actions and compensations change many copies
    /// (archiving 1,000 threads: ~3,000): the unread view (each copy's per-message state and counters in two
    /// folders), the actions view (the action's record and its copies) and the notifications view, about half
    /// of such a fold, beside the threads view's rows (adding the last two: 1,000-thread archive medians of
    /// 35.2 against 37.7 ms across six interleaved runs of 41 rounds, 2026-11-25).
    static let secondCoreViewsForActions: Set<String> = [ViewName.unread.rawValue, ViewName.actions.rawValue, ViewName.notifications.rawValue]
    /// Batches changing fewer copies than this fold their actions on one thread.
    static let secondCoreMinimumCopies = 256
    /// The views whose changes a batch of actions over many copies encodes on a thread of their own while the
    /// writing thread puts the second core's views' changes (which that core encoded): the threads view. Archiving
    /// 1,000 threads, its ~10,000 changes take ~11-13 ms to encode and sort, the second core's views' ~11,000 puts
    /// ~8-15 ms; the fold's median 59.5 ms against 63.5 ms encoding on the writing thread (2026-11-30, 270 folds
    /// each way, alternated).
    static let encodedAsideForActions: Set<String> = [ViewName.threads.rawValue]

    /// The views a batch folds on the second thread: `secondCoreViewsForActions` for batches of actions over many copies,
    /// the contacts view for big batches of anything else, none for small ones.
    package static func secondCoreViews(events: Int, decoded: [DomainEvent]) -> Set<String> {
        secondCoreViews(events: events, copies: copyCount(decoded))
    }

    /// The views a batch of `events` events changing `copies` email copies folds on the second thread.
    static func secondCoreViews(events: Int, copies: Int) -> Set<String> {
        if copies >= secondCoreMinimumCopies { return secondCoreViewsForActions }
        return events >= secondCoreMinimum ? secondCoreViews : []
    }

    /// A projector's fold failed on an event: the batch is folded again, that projector one event at a time.
    private struct FoldFailure: Error {
        let index: Int
    }

    /// A projector folded on the second core failed (its position among those folded there).
    private struct SecondCoreFailure: Error {
        let position: Int
    }

    /// Applies a batch to `second` on the calling (second) thread, reading through a read transaction of its
    /// own; their changes stay in their caches for the write transaction to flush. A projector that fails is
    /// named by its position in `second` (its batch is then folded one event at a time).
    ///
    /// Its read transaction begins while this process holds the views' write transaction, so no other
    /// process can have grown the map in between (that takes a commit): beginning it never needs the resize
    /// lock exclusively, which the writing thread holds shared.
    private func applyOnSecondCore(_ second: [Fold], events: [StoredEvent], decoded: [DomainEvent], skipped: Set<Int>) throws {
        try environment.read { txn in
            let scope = TransactionScope(txn)
            defer {
                scope.end()
                for f in second { f.store.scope = nil }
            }
            for (position, f) in second.enumerated() {
                f.store.scope = scope
                f.context.discard()
                f.projector.discardPending()
                // A part written before the batch ends (`FoldContext.writesInParts`) goes into the held writes of a
                // fold writing behind; without them this thread has no write transaction to write it in, so the
                // batch's changes stay in the caches until the writing thread flushes them.
                let parts = f.context.writesInParts
                if f.store.writeBehind == nil { f.context.writesInParts = false }
                defer { f.context.writesInParts = parts }
                let cp = try scope.get(meta, Array(f.name.utf8)).flatMap(ViewMeta.decode)?.checkpoint ?? 0
                do {
                    try ViewStore.apply(f.projector, handles: f.handles, events: events, decoded: decoded, skipped: skipped, after: cp)
                    try f.projector.prepareFlush()
                } catch {
                    throw SecondCoreFailure(position: position)
                }
                // Encoded and sorted here too: the writing thread then only puts the bytes.
                f.context.encode()
            }
        }
    }

    /// Says that the tables of `views` are empty now and that only this object will write them while it is
    /// open (a generation being built, a scratch fold from the log's start): its folds then keep a filter of
    /// the keys they put (`AbsentKeyFilters`) and skip the lookups of keys never put. Never for views that
    /// another process may write, or that hold data from a copy or a snapshot.
    package func buildsFromEmpty(_ views: [String]) {
        let budget = AbsentKeyBudget()
        // Folds made before this have stores without the filters.
        _ = takeKeptFolds()
        for type in catalog.types where views.contains(type.name.rawValue) {
            absentKeyFilters[type.name.rawValue] = AbsentKeyFilters(tables: ViewCatalog.tables(of: type), budget: budget)
        }
        // A generation being built keeps a history: its tables come from it at the end (`deriveFromHistory`).
        if windows != nil && writesBehind && staging != nil { stagedViews.formUnion(views) }
    }

    /// The cache room the kept folds' tables may hold in all (`keep`): 8 MiB.
    package var keptCacheBudget = 8 << 20

    /// Takes the kept folds, if any (a fold running at the same time on another thread makes its own).
    func takeKeptFolds() -> [Fold]? {
        keptLock.lock()
        defer { keptLock.unlock() }
        let folds = keptFolds
        keptFolds = nil
        return folds
    }

    /// Keeps `folds` for the next fold, emptied: nothing of a batch stays in them, only their tables' caches'
    /// room, at most `keptCacheBudget` bytes of it in all (tables past it drop theirs: a replay's batches leave
    /// big ones). Archiving 1,000 threads at 50K threads: 2 ms of its ~40 went to growing the caches again.
    private func keep(_ folds: [Fold]) {
        var budget = keptCacheBudget
        for f in folds {
            f.context.discard()
            f.projector.discardPending()
            f.context.trimCaches(budget: &budget)
        }
        keptLock.lock()
        defer { keptLock.unlock() }
        keptFolds = folds
    }

    /// The cache room the kept folds' tables hold (for tests).
    package var keptCacheBytes: Int {
        keptLock.lock()
        defer { keptLock.unlock() }
        return keptFolds?.reduce(0) { $0 + $1.context.cacheBytes } ?? 0
    }

    /// The lookups the filters of `buildsFromEmpty` answered so far without reading a table.
    package var lookupsSkipped: Int { absentKeyFilters.values.reduce(0) { $0 + $1.skippedLookups } }

    /// Folds every event after each view's checkpoint, up to `limit` (default: the log's head).
    ///
    /// No event can stop it: an event that does not decode, or that a projector fails to fold (a bug), is
    /// quarantined for that view with its error (see `quarantined()`), and folding goes on.
    package func catchUp(through limit: UInt64? = nil, progress: ((UInt64, UInt64) -> Void)? = nil) throws {
        try guarded { try fold(through: limit, progress: progress) }
    }

    private func fold(through limit: UInt64?, progress: ((UInt64, UInt64) -> Void)?) throws {
        // A window's close left running by the fold before has read the window's end first: this fold's changes are the
        // next window's, folded while that close writes (`closeWindowAfterFold`).
        waitForCloseRead()
        // After a close left running failed, this fold closes a due window in its batch, where a failure reaches its
        // caller; the failure is kept until a fold ends well.
        let failedClose = takeCloseFailure()
        var folded = false
        defer { if !folded, let failedClose { keepCloseFailure(failedClose) } }
        let head = try limit ?? log.head().sequence
        let start = (try checkpoints().values.min() ?? 0)
        guard start < head else { return }
        guard pastPoint == nil else { throw ViewError.pastPoint }
        guard !lostWritesBehind else {
            throw ViewError.damaged("\(path): an earlier fold into this private folder failed before writing out what it held")
        }
        if spillsRuns && writesBehind && spilled == nil { spilled = try SpilledRuns(folder: path + "/" + ViewStore.spillFolder) }
        let kept = takeKeptFolds().flatMap { folds in folds.allSatisfy { ($0.store.writeBehind != nil) == writesBehind } ? folds : nil }
        let folds = kept ?? catalog.types.map { type -> Fold in
            let stages = windows != nil && writesBehind && stagedViews.contains(type.name.rawValue)
            let recorder = windows == nil ? nil : HistoryRecorder(tables: historyTables, deferred: stages)
            let store = LMDBKeyValueStore(databases: databases, filters: absentKeyFilters[type.name.rawValue],
                                          writeBehind: writesBehind ? WriteBehind() : nil, history: recorder, stagesHistory: stages,
                                          spilled: writesBehind ? spilled : nil)
            let context = FoldContext(store: store)
            return Fold(name: type.name.rawValue, schemaVersion: type.schemaVersion, store: store, context: context,
                        projector: type.init(context: context), handles: type.handledEvents)
        }
        defer {
            // Runs are left unmerged on purpose only by a fold that ended, for `publish` (`mergesRunsWhenPublished`).
            let runsLeft = !(spilled?.isEmpty ?? true) && !(folded && mergesRunsWhenPublished)
            if folds.contains(where: { !($0.store.writeBehind?.isEmpty ?? true) }) || runsLeft {
                // Left by an error: what they hold is lost with them, and the folder with it.
                lostWritesBehind = true
            } else {
                keep(folds)
            }
        }
        // The batch as parallel arrays, read by index: each projector borrows the events instead of copying
        // (and retaining every field of) a tuple per event per projector. An event that does not decode has a
        // `.unknown` stand-in that no projector folds, and its index in `skipped`.
        var events: [StoredEvent] = []
        var decodedEvents: [DomainEvent] = []
        var skipped = Set<Int>()
        var batchBytes = 0
        var undecodable: [QuarantinedEvent] = []
        events.reserveCapacity(ViewStore.batchSize)
        decodedEvents.reserveCapacity(ViewStore.batchSize)
        var done: UInt64 = 0
        // Where the next batch must end so that it spans no window's end (`ViewHistory`).
        var cut = try nextWindowCut(after: start, closing: runningCloseEnd())
        // The fold's last batch may leave a window's close to run after the fold returns (`closesWindowsAfterFold`):
        // a live fold's, whose history goes to the change log.
        let closesAfter = closesWindowsAfterFold && !writesBehind && changeLog != nil && failedClose == nil
        func commit(final: Bool = false) throws {
            guard let last = events.last?.envelope.sequence else { return }
            var careful: Set<Int> = []
            var nextCut: UInt64?
            var endsWindow = false
            var closeAfter = false
            let copies = ViewStore.copyCount(decodedEvents)
            try environment.reserve(room: ViewStore.batchRoom(events: events.count, copies: copies))
            // The log's pages the scan mapped go first, once per batch: the scan is done with them, and left
            // mapped they would count against the budget all through the batch, so the releasing thread would
            // unmap the views' pages the folds are writing.
            let bigBatch = events.count >= ViewStore.releaserMinimum || batchBytes >= ViewStore.releaserMinimumBytes
            if bigBatch { log.environment.releaseResidentPages() }
            // A close left running ends before a batch that takes the next window to half its events (where it may be
            // due): windows close in order, and one holds at most `historyWindowEvents`.
            // So does a close before a batch when the open window's bytes of versions (the closing window's with the
            // next one's) reach twice `historyWindowBytes`: what the next close holds stays bounded (`WindowClose`).
            if let closing = runningCloseEnd(),
               try last >= closing &+ max(1, historyWindowEvents / 2) || openWindowBytes() >= 2 * UInt64(historyWindowBytes) {
                waitForPendingClose()
            }
            while true {
                do {
                    // A big batch's pages are unmapped while it folds, writes and commits (see
                    // `ResidentPageReleaser`): the resident size holds a few milliseconds' pages, not the batch's.
                    let releaser = bigBatch ? ResidentPageReleaser(environment, every: ViewStore.releaseEvery) : nil
                    defer { releaser?.stop() }
                    try environment.write { txn in
                        let scope = TransactionScope(txn)
                        defer {
                            scope.end()
                            for f in folds { f.store.scope = nil }
                        }
                        // A transaction run again (a view failed, the map was full) starts from what was committed.
                        for f in folds { f.store.writeBehind?.abort() }
                        // The batch's versions go in the window holding its events: a live fold's in the open window to
                        // the change log, the rest (a generation being built, a view folded again) as versions at once.
                        // The window a close left running closes counts as closed while that close runs (one that had not
                        // ended when this transaction began cannot close its window before this one commits).
                        let lastClosedWindow = try windows.flatMap { try ViewHistory.lastClosed(scope, $0) }
                        let closed = try lastClosed(scope, closing: runningCloseEnd())
                        if let windows {
                            let open = last > (closed?.end ?? 0)
                            let window = open ? (closed?.number ?? 0) + 1 : try ViewHistory.window(for: last, scope, windows)
                            if open { try changeLog?.begin(scope) }
                            for f in folds {
                                f.store.history?.window = window
                                f.store.history?.log = open && !f.store.stagesHistory ? changeLog : nil
                                f.store.history?.bytes = 0
                            }
                        }
                        // Big batches: the second core applies some views' events (reading through a read
                        // transaction of its own, which sees what this one does: the batch's changes stay in
                        // the folds' caches until they are written below, and a view reads only its tables).
                        let secondNames = foldsOnTwoCores || secondCoreFree?() == true ? ViewStore.secondCoreViews(events: events.count, copies: copies) : []
                        let second = Set(folds.indices.filter { secondNames.contains(folds[$0].name) && !careful.contains($0) })
                        nonisolated(unsafe) let secondFolds = second.sorted().map { folds[$0] }
                        let batch = (events, decodedEvents, skipped)
                        let worker = second.isEmpty ? nil : BackgroundWork { [self] in
                            try applyOnSecondCore(secondFolds, events: batch.0, decoded: batch.1, skipped: batch.2)
                        }
                        // However this transaction ends (a view failing here, the map full), the second thread
                        // is done before the stores it uses are unbound (the defer above, which runs after).
                        defer { _ = worker?.wait() }
                        // With the second core's views, a fold named in `encodedAsideForActions` has its changes
                        // encoded on a thread of its own while this one writes those views; its own are written
                        // after them. An encoder touches only its fold's table caches, and ends before this
                        // transaction does, however it ends.
                        let asideNames = worker != nil && copies >= ViewStore.secondCoreMinimumCopies
                            ? ViewStore.encodedAsideForActions : []
                        var encodersAside: [(index: Int, work: BackgroundWork<Void>)] = []
                        defer { for e in encodersAside { _ = e.work.wait() } }
                        var quarantined = undecodable
                        for (i, f) in folds.enumerated() {
                            let key = Array(f.name.utf8)
                            if second.contains(i) { continue }
                            f.store.scope = scope
                            f.context.discard()
                            f.projector.discardPending()
                            let cp = try scope.get(meta, key).flatMap(ViewMeta.decode)?.checkpoint ?? 0
                            if careful.contains(i) {
                                try foldOneByOne(f, after: cp, quarantined: &quarantined)
                            } else {
                                do {
                                    try ViewStore.apply(f.projector, handles: f.handles, events: events, decoded: decodedEvents,
                                                        skipped: skipped, after: cp)
                                    try f.projector.prepareFlush()
                                    if asideNames.contains(f.name) {
                                        nonisolated(unsafe) let context = f.context
                                        encodersAside.append((i, BackgroundWork { context.encode() }))
                                    } else {
                                        try f.context.flush()
                                    }
                                } catch let e as LMDBError where e.isMapFull {
                                    throw e
                                } catch {
                                    throw FoldFailure(index: i)
                                }
                            }
                            if last > cp {
                                try scope.put(meta, key, ViewMeta(schemaVersion: f.schemaVersion, checkpoint: last).encoded)
                            }
                        }
                        // The second core's views: written here, in this transaction, once their thread is done.
                        if let worker {
                            if case .failure(let e) = worker.wait() {
                                if let failed = e as? SecondCoreFailure { throw FoldFailure(index: second.sorted()[failed.position]) }
                                throw e
                            }
                            for i in second.sorted() {
                                let f = folds[i], key = Array(f.name.utf8)
                                f.store.scope = scope
                                let cp = try scope.get(meta, key).flatMap(ViewMeta.decode)?.checkpoint ?? 0
                                try f.context.flush()
                                if last > cp {
                                    try scope.put(meta, key, ViewMeta(schemaVersion: f.schemaVersion, checkpoint: last).encoded)
                                }
                            }
                        }
                        // The folds encoded aside: their changes written once encoded.
                        for e in encodersAside {
                            _ = e.work.wait()
                            do {
                                try folds[e.index].context.flush()
                            } catch let error as LMDBError where error.isMapFull {
                                throw error
                            } catch {
                                throw FoldFailure(index: e.index)
                            }
                        }
                        // The link to the log folded from (`logMismatch` tells another log's views by it).
                        if let link = try logLink(through: last) { try scope.put(meta, ViewStore.logLinkKey, link) }
                        // The keys the batch changed, a change-log entry per table, before the window's close reads them.
                        try changeLog?.flush(scope)
                        for q in quarantined { try scope.put(quarantine, q.key, Array(q.error.utf8)) }
                        let (nowClosed, deferred) = try closeWindowIfDue(at: last, after: closed, scope: scope,
                                                                         written: folds.reduce(0) { $0 + ($1.store.history?.bytes ?? 0) },
                                                                         deferring: final && closesAfter,
                                                                         closing: closed != lastClosedWindow)
                        closeAfter = deferred
                        nextCut = try windowCut(after: last, closed: nowClosed, scope: scope)
                        try recordHistoryThrough(last, scope: scope)
                        if let windows {
                            heldWindow = folds.first { $0.store.history != nil }?.store.history?.window ?? 0
                            endsWindow = try nowClosed?.end == last || ViewHistory.closed(atOrAfter: last, scope, windows)?.end == last
                        }
                    }
                    for f in folds { f.store.writeBehind?.commit() }
                    if closeAfter { closeWindowAfterFold(at: last) }
                    break
                } catch let failure as FoldFailure {
                    careful.insert(failure.index)
                }
            }
            done += UInt64(events.count)
            if writesBehind {
                let held = folds.reduce(0) { $0 + ($1.store.writeBehind?.bytes ?? 0) }
                // Views staging their history hold one window's changes at a time (`writeOut`).
                if held >= writeBehindLimit || (endsWindow && folds.contains { $0.store.stagesHistory }) { try writeOut(folds) }
            }
            cut = nextCut
            progress?(done, head - start)
            // The views' pages the folds touched stay in the page cache, not in this process's resident size
            // (the map is shared: pages are mapped again when touched; the scan below releases the log's), once
            // every `releaseInterval` events folded by this store, however they were batched: one action's
            // catch-up does not pay for finding the map, a long sync of small batches still releases.
            foldedSinceRelease += events.count
            foldedBytesSinceRelease += batchBytes
            if foldedSinceRelease >= ViewStore.releaseInterval || foldedBytesSinceRelease >= ViewStore.releaseBytes {
                foldedBytesSinceRelease = 0
                environment.releaseResidentPages(over: Environment.residentFileBudget)
                foldedSinceRelease = 0
            }
            events.removeAll(keepingCapacity: true)
            decodedEvents.removeAll(keepingCapacity: true)
            skipped.removeAll()
            batchBytes = 0
            undecodable.removeAll()
        }
        /// Folds the batch into one projector event by event, writing after each, so a failing event's
        /// partial changes are dropped alone and the event is quarantined.
        func foldOneByOne(_ f: Fold, after cp: UInt64, quarantined: inout [QuarantinedEvent]) throws {
            // A failing event's changes are dropped whole: none written before its end.
            f.context.writesInParts = false
            defer { f.context.writesInParts = true }
            for i in events.indices where events[i].envelope.sequence > cp && !skipped.contains(i)
                && f.handles.contains(events[i].envelope.type) {
                let ev = events[i]
                do {
                    try f.projector.apply(ev, decodedEvents[i])
                    try f.projector.prepareFlush()
                    try f.context.flush()
                } catch let e as LMDBError where e.isMapFull {
                    throw e
                } catch {
                    f.context.discard()
                    f.projector.discardPending()
                    quarantined.append(QuarantinedEvent(sequence: ev.envelope.sequence, view: f.name, error: "\(error)"))
                }
            }
        }
        // (Decoding on both cores was tried: glibc malloc contention made it slower than one.)
        // The log's records lie between its blobs' pages: the scan drops the pages it has mapped after each chunk
        // (`EventLog.scan`), or the resident size would grow with the log (they stay in the page cache).
        try log.scan(from: start + 1) { ev in
            if ev.envelope.sequence > head { return false }
            if let q = ViewStore.append(ev, to: &events, &decodedEvents, skipped: &skipped) { undecodable.append(q) }
            batchBytes += ev.payload.count
            // (The records a batch touches are not counted here: the projectors fold a batch only once it is
            // complete, in `commit`, so their caches are empty while it is read. They grow with its events and
            // their payload bytes: each event names a bounded number of addresses, copies and keys.)
            if events.count >= batchEvents || batchBytes >= ViewStore.batchBytes || ev.envelope.sequence == cut {
                try commit()
            }
            return true
        }
        try commit(final: true)
        try writeOut(folds)
        if !mergesRunsWhenPublished { try mergeSpilled() }
        folded = true
    }

    /// Appends `ev` to a batch a fold reads (parallel arrays read by index: each projector borrows the events instead
    /// of copying them): decoded, or, when it does not decode, a `.unknown` stand-in that no projector folds with its
    /// index in `skipped`, and the quarantine entry for every view (`*`) returned.
    static func append(_ ev: StoredEvent, to events: inout [StoredEvent], _ decoded: inout [DomainEvent],
                       skipped: inout Set<Int>) -> QuarantinedEvent? {
        defer { events.append(ev) }
        do {
            decoded.append(try ev.decode())
            return nil
        } catch {
            skipped.insert(events.count)
            decoded.append(.unknown(type: ev.envelope.type, version: ev.envelope.schemaVersion, payload: []))
            return QuarantinedEvent(sequence: ev.envelope.sequence, view: "*", error: "does not decode: \(error)")
        }
    }

    /// Writes what `folds` hold behind (`WriteBehind`) into the B-trees: each table's entries in key order, at most
    /// `writeBehindChunk` per transaction, their pages unmapped meanwhile as a batch's are.
    private func writeOut(_ folds: [Fold]) throws {
        let total = folds.reduce(0) { $0 + ($1.store.writeBehind?.bytes ?? 0) }
        guard total > 0 else { return }
        // A write-out that fails midway (the disk full) has taken what it held: the folder is then unusable too.
        lostWritesBehind = true
        let releaser = ResidentPageReleaser(environment, every: ViewStore.releaseEvery)
        defer { releaser.stop() }
        try spilled?.begin()
        // Table by table: what is held shrinks as its encoding grows, so the two together stay within the budget.
        for f in folds {
            guard let held = f.store.writeBehind else { continue }
            for table in held.tablesHeld {
                guard let db = databases[table] else { throw ViewError.unknownTable(table) }
                let changes = held.take(table)
                // A view staging its history holds one window's changes: they are that window's versions too, appended
                // as a run (`views.staging`, merged into the history when the generation is published).
                let staged = f.store.stagesHistory ? try stagedRun(for: table) : nil
                // Spilling, the table's changes go to the run in one pass (the versions still to `views.staging`).
                if let spilled { try spilled.add(table, changes) }
                let intoTable = spilled == nil
                guard intoTable || staged != nil else { continue }
                var next = 0
                while next < changes.count {
                    // At most a chunk of entries, or `partBytes` of them (after the first): big values (long threads'
                    // records) would otherwise make a transaction's dirty pages the held budget's whole.
                    let chunk = environment.writeMap ? ViewStore.writeBehindChunk : ViewStore.writeBehindChunkByPwrite
                    var end = next, bytes = 0
                    while end < changes.count, end - next < chunk, end == next || bytes < ViewStore.partBytes {
                        bytes += changes.withChange(at: end) { k, v in k.count + (v?.count ?? 0) }
                        end += 1
                    }
                    try environment.reserve(room: ViewStore.batchRoom(events: end - next, copies: 0) * (staged == nil || !intoTable ? 1 : 2))
                    try environment.write { txn in
                        let scope = TransactionScope(txn)
                        defer { scope.end() }
                        // Through a cursor: in key order, a change on the leaf the last one left skips the descent
                        // from the root.
                        if intoTable {
                            try txn.withCursor(db) { cursor in
                                try changes.forEach(in: next..<end) { key, value in
                                    try ViewStore.write(key, value, through: cursor)
                                    if let staged { try stage(key, value, run: staged, scope: scope) }
                                }
                            }
                        } else if let staged, let staging {
                            try txn.withCursor(staging) { cursor in
                                try changes.forEach(in: next..<end) { key, value in
                                    try stage(key, value, run: staged, scope: scope, through: cursor)
                                }
                            }
                        }
                    }
                    next = end
                }
            }
        }
        if let spilled {
            try spilled.finish()
            spillCounts.runs += 1
            lostWritesBehind = false
            if spilled.bytes >= spillLimit || spilled.count >= SpilledRuns.maxRuns { try mergeSpilled() }
            return
        }
        lostWritesBehind = false
    }

    /// Puts `value` under `key` (nil: deletes it, absent is fine) through `cursor`. Changes written in key order
    /// this way search from the leaf the cursor is on when the key falls within it (LMDB's `mdb_cursor_set`), where
    /// `mdb_put` and `mdb_del` descend from the root each time.
    static func write(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?, through cursor: borrowing Cursor) throws {
        if let value {
            try cursor.put(key: key, value: value)
        } else if try cursor.seek(exactly: key) != nil {
            try cursor.deleteCurrent()
        }
    }

    /// Merges the spilled runs (`SpilledRuns`) into the B-trees, table by table in key order, in transactions of at
    /// most `writeBehindChunkByPwrite` entries (or `partBytes`), and drops them.
    private func mergeSpilled() throws {
        guard let spilled, !spilled.isEmpty else { return }
        lostWritesBehind = true
        let releaser = ResidentPageReleaser(environment, every: ViewStore.releaseEvery)
        defer { releaser.stop() }
        let chunk = environment.writeMap ? ViewStore.writeBehindChunk : ViewStore.writeBehindChunkByPwrite
        // Table by table on two threads, the biggest first (the second core waits for the next batch meanwhile): each
        // merge reads its own readers of the runs, and their write transactions take turns.
        let tables = spilled.tables.map { ($0, spilled.bytes(of: $0)) }.sorted { $0.1 > $1.1 }.map(\.0)
        try ViewStore.onTwoThreads(tables, twoThreads: mergesOnTwoThreads) { [self] table in
            guard let db = databases[table] else { throw ViewError.unknownTable(table) }
            // A part of the table's merged changes, copied out of the runs' buffers first: a transaction run again
            // (the map grown) writes the same part.
            var part = EncodedChanges()
            func write() throws {
                guard part.count > 0 else { return }
                try environment.reserve(room: ViewStore.batchRoom(events: part.count, copies: 0))
                try environment.write { txn in
                    try txn.withCursor(db) { cursor in
                        try part.forEach(in: 0..<part.count) { k, v in try ViewStore.write(k, v, through: cursor) }
                    }
                }
                part.removeAll()
            }
            try spilled.forEachMerged(table) { key, value in
                part.append(key: key, value: value)
                if part.count >= chunk || part.byteCount >= ViewStore.partBytes { try write() }
            }
            try write()
        }
        spilled.clear()
        spillCounts.merges += 1
        lostWritesBehind = false
    }

    /// Drops the spilled runs once `publish` has merged all of them into its copy, counted as a merge.
    func publishedSpilledRuns() {
        guard let spilled, !spilled.isEmpty else { return }
        spilled.clear()
        spillCounts.merges += 1
    }
}
