import LMDB
import Projections

// A generation being built is written out as the one that serves: every table copied in key order with
// `MDB_APPEND` (pages filled, no free pages), the history's staged runs merged into it on the way (`StagedRuns`).
extension ViewStore {
    /// Entries a chunk of `publish` copies: one read transaction of this store and one write transaction of the
    /// target each, so neither lasts long and the target's commits touch a bounded number of pages.
    static let publishChunk = 8_192

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
        for type in catalog.types {
            let stages = stagedViews.contains(type.name.rawValue)
            for table in ViewCatalog.tables(of: type) {
                guard let from = databases[table], let to = out.databases[table] else { throw ViewError.unknownTable(table) }
                try copy(from, to: to, into: out, append: true)
                guard let history = historyTables[table], let outHistory = out.historyTables[table] else { continue }
                if stages, let staging {
                    try mergeStaged(table: table, staging: staging, history: history, to: outHistory, into: out)
                } else {
                    try copy(history, to: outHistory, into: out, append: true)
                }
            }
        }
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
    /// the root each time). A write run again (the map full) starts from where its chunk began.
    ///
    /// The last key a chunk copied is kept once, at its end, and only the next chunk's first entry is compared with
    /// it: copying each key into an array and comparing it with the one before, element by element, was 7% of a
    /// `replay --view unread` at 10K messages (callgrind, 2026-11-29).
    private func copy(_ from: Database, to: Database, into out: ViewStore, append: Bool) throws {
        let flags: PutFlags = append ? .append : []
        // The last key copied by the chunks committed so far (nil before the first).
        var after: [UInt8]?
        var done = false
        while !done {
            try out.environment.reserve(room: ViewStore.batchRoom(events: ViewStore.publishChunk, copies: 0))
            let chunkStart = after
            var chunkEnd: [UInt8]?
            try guarded { try environment.read { source in
                try source.withCursor(from) { reading in
                    try out.environment.write { txn in
                        try txn.withCursor(to) { writing in
                            done = true
                            chunkEnd = chunkStart
                            var entry: Cursor.Entry?
                            if let start = chunkStart {
                                entry = try start.withUnsafeBytes { try reading.seek(atLeast: $0) }
                                // The key the chunk before ended with, copied already (unless it is gone since).
                                if let e = entry, e.key.elementsEqual(start) { entry = try reading.next() }
                            } else {
                                entry = try reading.first()
                            }
                            var copied = 0
                            var last: UnsafeRawBufferPointer?
                            while let e = entry {
                                guard copied < ViewStore.publishChunk else {
                                    done = false
                                    break
                                }
                                try writing.put(key: e.key, value: e.value, flags: flags)
                                last = e.key
                                copied += 1
                                entry = try reading.next()
                            }
                            // The source's pages stay mapped until its read transaction ends: the key is valid here.
                            if let last { chunkEnd = Array(last) }
                        }
                    }
                }
            } }
            after = chunkEnd
        }
    }
}
