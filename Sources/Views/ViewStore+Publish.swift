import LMDB
import Projections

// A generation being built is written out as the one that serves: every table copied in key order with
// `MDB_APPEND` (pages filled, no free pages), the history's staged runs merged into it on the way (`StagedRuns`).
extension ViewStore {
    /// Entries a chunk of `publish` copies: one read transaction of this store and one write transaction of the
    /// target each, so neither lasts long and the target's commits touch a bounded number of pages.
    static let publishChunk = 8_192
    /// A chunk also ends past this many bytes of keys and values copied: the write transaction holds the pages it
    /// fills in memory until it commits, and 8,192 long threads' records (~1 MB each, `ThreadBound`) had been 130 MB
    /// in one transaction.
    static let publishChunkBytes = 16 << 20

    /// Writes these views into the views environment `target` (a new, empty folder's): the meta, quarantine and
    /// history's windows and change log as they are, each view table and history table in key order, appended; for
    /// the views of `stagedViews`, each history table merged on the way from its staged runs (`StagedRuns`) and what
    /// it holds. Replaces `Environment.copy` for a generation being built: the tables and history come out with their
    /// pages filled, the staging left behind. The target is synced before this returns.
    package func publish(to target: String) throws {
        waitForPendingClose()
        // Written once, in order, by commits of whole chunks: `pwrite` rather than a fault for each new page of the map.
        let out = try ViewStore(path: target, log: log, catalog: catalog, writeMap: false)
        let releaser = ResidentPageReleaser(environment, every: ViewStore.releaseEvery)
        let released = ResidentPageReleaser(out.environment, every: ViewStore.releaseEvery)
        defer {
            releaser.stop()
            released.stop()
        }
        // The small tables, put (the target has its own meta: the history's format, written when it opened).
        var small: [(Database, Database)] = [(meta, out.meta)]
        if quarantine != meta { small.append((quarantine, out.quarantine)) }
        if let w = windows, let to = out.windows { small.append((w, to)) }
        if let c = changeLog, let to = out.changeLog { small.append((c.database, to.database)) }
        for (from, to) in small { try copy(from, to: to, into: out, append: false) }
        // The runs a fold left unmerged (`mergesRunsWhenPublished`): each table's merged with its B-tree on the way.
        var runTables = Set(spilled?.tables ?? [])
        var jobs: [PublishJob] = []
        for type in catalog.types {
            let stages = stagedViews.contains(type.name.rawValue)
            for table in ViewCatalog.tables(of: type) {
                guard databases[table] != nil, out.databases[table] != nil else { throw ViewError.unknownTable(table) }
                let hasHistory = historyTables[table] != nil && out.historyTables[table] != nil
                let historyName = ViewHistory.table(table)
                jobs.append(PublishJob(table: table, runs: runTables.remove(table) != nil, hasHistory: hasHistory,
                                       stagesHistory: hasHistory && stages && staging != nil,
                                       historyRuns: hasHistory && !(stages && staging != nil) && runTables.remove(historyName) != nil))
            }
        }
        // Only the views' tables are written behind, so spilled (a table of no view here would be a bug: not served).
        guard runTables.isEmpty else {
            throw ViewError.damaged("\(path): spilled changes of tables no view opens: \(runTables.sorted().joined(separator: ", "))")
        }
        try publish(jobs, into: out)
        publishedSpilledRuns()
        // Any other table the file holds (one this build's views do not open, a newer build's say) goes as it is.
        let known = Set([ViewStore.metaTable, ViewStore.quarantineTable, ViewHistory.windowsTable, ViewHistory.changesTable,
                         ViewHistory.stagingTable] + catalog.tables + catalog.tables.map(ViewHistory.table))
        let others = try guarded { try environment.read { try $0.databaseNames() } }.filter { !known.contains($0) }
        if !others.isEmpty {
            let from = try environment.openDatabases(others, flags: [])
            let to = try out.environment.openDatabases(others, flags: .create)
            for name in others.sorted() { try copy(from[name]!, to: to[name]!, into: out, append: true) }
        }
        try out.environment.sync()
        try out.environment.shrinkToData()
    }

    /// One view table to publish, with its history.
    struct PublishJob {
        var table: String
        /// Whether spilled runs hold changes of the table (merged on the way).
        var runs: Bool
        var hasHistory: Bool
        /// Whether its history comes from staged runs (`mergeStaged`), else copied.
        var stagesHistory: Bool
        /// Whether spilled runs hold entries of its history table (a view not built from empty here).
        var historyRuns: Bool
    }

    /// Publishes `jobs` into `out` on two threads (this one and one more), biggest tables first: each job's reads and
    /// merges run beside the other's, and their write transactions of `out` take turns (LMDB's one writer). Each table
    /// is written by one thread, in key order, so it comes out as one thread would write it; its pages lie in the
    /// file in stretches of a chunk (`publishChunk` entries) between the other table's. The first error stops both
    /// and is thrown once the other thread has stopped. With `publishesOnTwoThreads` off (or one job), one thread.
    private func publish(_ jobs: [PublishJob], into out: ViewStore) throws {
        // Biggest first (by the source's pages of the table and of its history), so the two threads end close together.
        let sized = try guarded { try environment.read { txn in
            try jobs.map { job -> (PublishJob, Int) in
                var pages = try txn.stat(databases[job.table]!).bytes
                if job.hasHistory, let h = historyTables[job.table] { pages += try txn.stat(h).bytes }
                return (job, pages)
            }
        } }
        try ViewStore.onTwoThreads(sized.sorted { $0.1 > $1.1 }.map(\.0), twoThreads: publishesOnTwoThreads) { [self] job in
            try publishTable(job, into: out)
        }
    }

    /// Publishes one table and its history into `out` (`publish(to:)`).
    private func publishTable(_ job: PublishJob, into out: ViewStore) throws {
        guard let from = databases[job.table], let to = out.databases[job.table] else { throw ViewError.unknownTable(job.table) }
        try copy(from, to: to, into: out, append: true, runs: job.runs ? try spilled?.merged(job.table) : nil)
        guard job.hasHistory, let history = historyTables[job.table], let outHistory = out.historyTables[job.table] else { return }
        if job.stagesHistory, let staging {
            try mergeStaged(table: job.table, staging: staging, history: history, to: outHistory, into: out)
        } else {
            // A view not built from empty here writes the versions of events in a closed window at once, held
            // and spilled as entries of its history table: merged on the way too.
            let runs = job.historyRuns ? try spilled?.merged(ViewHistory.table(job.table)) : nil
            try copy(history, to: outHistory, into: out, append: true, runs: runs)
        }
    }

    /// Writes `table`'s history into `to` of `out`: its staged runs merged with what `history` holds, in key order.
    private func mergeStaged(table: String, staging: Database, history: Database, to: Database, into out: ViewStore) throws {
        var key: [UInt8] = []
        try staged.merge(table: table, staging: staging, history: history, chunk: ViewStore.publishChunk, read: { work in
            try guarded { try environment.read { txn in
                let scope = TransactionScope(txn)
                defer { scope.end() }
                try work(scope)
            } }
        }) { versions in
            try out.environment.reserve(room: ViewStore.batchRoom(events: versions.count, copies: 0))
            try out.environment.write { txn in
                // Appended through a cursor: each put starts from the leaf the last one filled.
                try txn.withCursor(to) { writing in
                    try versions.forEach { k, window, raw in
                        guard let parsed = HistoryValue.parse(raw), parsed.key == nil else {
                            throw ViewError.damaged("\(ViewHistory.stagingTable): a staged version is not one the history writes")
                        }
                        let cut = HistoryKey.encode(k, window: window, into: &key)
                        let value = parsed.present ? parsed.value : nil
                        let stored = try key.withUnsafeBytes {
                            try writing.reserve(key: $0, size: HistoryValue.size(key: k, cut: cut, value: value), flags: .append)
                        }
                        HistoryValue.write(key: k, cut: cut, value: value, into: stored)
                    }
                }
            }
        }
    }

    /// Copies `from` into `to` of `out` in key order, appended (keys in order, pages filled) or put, in chunks of
    /// `publishChunk` entries: each chunk one read transaction here and one write transaction of `out`, through a
    /// cursor on each (a put through a cursor starts from the leaf the last one left, where `mdb_put` descends from
    /// the root each time). A write run again (the map full) starts from where its chunk began. With `runs` (the
    /// table's spilled changes not merged into `from`), the two are merged on the way: a key's change in the runs
    /// replaces its entry in `from`, a deletion drops it.
    ///
    /// The last key a chunk copied is kept once, at its end, and only the next chunk's first entry is compared with
    /// it: copying each key into an array and comparing it with the one before, element by element, was 7% of a
    /// `replay --view unread` at 10K messages (callgrind, 2026-11-29).
    private func copy(_ from: Database, to: Database, into out: ViewStore, append: Bool, runs: MergedRuns? = nil) throws {
        let flags: PutFlags = append ? .append : []
        // The last key the chunks committed so far passed (copied, replaced or dropped; nil before the first): every
        // key up to it in `from` and in `runs` is done.
        var after: [UInt8]?
        var done = false
        // The runs' next changes, copied out of their read buffers (`part`, from `partAt` on): a write run again (the
        // map grown) reads the same ones, where the runs themselves have moved on. At most `publishPartEntries`
        // (`writeBehindChunkByPwrite`) of them at a time, as `mergeSpilled` holds.
        var part = EncodedChanges()
        var partAt = 0
        while !done {
            if let runs, partAt == part.count, runs.key != nil {
                part.removeAll()
                partAt = 0
                while part.count < publishPartEntries, part.byteCount < ViewStore.partBytes, let key = runs.key {
                    part.append(key: key, value: runs.value)
                    try runs.advance()
                }
            }
            // The runs' first change not in `part`: entries of `from` from it on wait for the next part. (It points into
            // the runs' buffers, which move only when `part` is filled again, between chunks.)
            let pending = runs?.key
            try out.environment.reserve(room: ViewStore.batchRoom(events: publishChunkEntries, copies: 0))
            let chunkStart = after, chunkPartAt = partAt
            var chunkEnd: [UInt8]?
            var nextPartAt = partAt
            try guarded { try environment.read { source in
                try source.withCursor(from) { reading in
                    try out.environment.write { txn in
                        try txn.withCursor(to) { writing in
                            done = true
                            chunkEnd = chunkStart
                            var entry: Cursor.Entry?
                            if let start = chunkStart {
                                entry = try start.withUnsafeBytes { try reading.seek(atLeast: $0) }
                                // The key the chunk before ended with, done already (unless it is gone since).
                                if let e = entry, e.key.elementsEqual(start) { entry = try reading.next() }
                            } else {
                                entry = try reading.first()
                            }
                            var at = chunkPartAt
                            var copied = 0, copiedBytes = 0
                            var last: UnsafeRawBufferPointer?
                            // The position in `part` of the last key passed, when it came from there.
                            var lastInPart: Int?
                            while true {
                                guard copied < publishChunkEntries, copiedBytes < ViewStore.publishChunkBytes else {
                                    done = false
                                    break
                                }
                                let fromPart = at < part.count
                                if let e = entry, fromPart ? part.withChange(at: at, { k, _ in SpilledRuns.precedes(e.key, k) })
                                                           : pending.map({ SpilledRuns.precedes(e.key, $0) }) ?? true {
                                    try writing.put(key: e.key, value: e.value, flags: flags)
                                    copiedBytes += e.key.count + e.value.count
                                    last = e.key
                                    lastInPart = nil
                                    entry = try reading.next()
                                } else if fromPart {
                                    try part.withChange(at: at) { key, value in
                                        if let value {
                                            try writing.put(key: key, value: value, flags: flags)
                                            copiedBytes += key.count + value.count
                                        }
                                        if let e = entry, SpilledRuns.equal(e.key, key) { entry = try reading.next() }
                                    }
                                    lastInPart = at
                                    at += 1
                                } else {
                                    // `part` used up: the rest of `from` is at or past the runs' next change (the next
                                    // chunk's, once `part` is filled again), or both are.
                                    if pending != nil { done = false }
                                    break
                                }
                                copied += 1
                            }
                            // The source's pages stay mapped until its read transaction ends: the key is valid here.
                            if let i = lastInPart {
                                chunkEnd = part.withChange(at: i) { key, _ in Array(key) }
                            } else if let last {
                                chunkEnd = Array(last)
                            }
                            nextPartAt = at
                        }
                    }
                }
            } }
            after = chunkEnd
            partAt = nextPartAt
        }
    }
}
