import LMDB
import Projections

// A generation being built is written out as the one that serves: every table copied in key order with
// `MDB_APPEND` (pages filled, no free pages), the tables of the views built from their history derived from it on
// the way (`derivedViews`).
extension ViewStore {
    /// Entries a chunk of `publish` copies: one read transaction of this store and one write transaction of the
    /// target each, so neither lasts long and the target's commits touch a bounded number of pages.
    static let publishChunk = 8_192

    /// Writes these views into the views environment `target` (a new, empty folder's): the meta, quarantine and
    /// history's windows and change log as they are, each view table and history table in key order, appended. For
    /// the views of `derivedViews` (their tables empty here: built from their history, `LMDBKeyValueStore.derivesFromHistory`),
    /// each key's latest version is written to its table as the history is copied: the tables are derived from the
    /// history in the same pass. Replaces `Environment.copy` for a generation being built: one pass over the history
    /// instead of a derivation and a compacted copy, and the tables and history come out with their pages filled
    /// (random inserts left the history's B-trees ~half full: 226 MB of history at 100K generated messages, ~130 MB
    /// appended). The target is synced before this returns.
    package func publish(to target: String) throws {
        // Written once, in order, by commits of whole chunks: `pwrite` rather than a fault for each new page of the map.
        let out = try ViewStore(path: target, log: log, catalog: catalog, writeMap: false)
        let derived = derivedViews
        let releaser = ResidentPageReleaser(environment, every: ViewStore.releaseEvery)
        let released = ResidentPageReleaser(out.environment, every: ViewStore.releaseEvery)
        defer {
            releaser.stop()
            released.stop()
        }
        // The small tables, put (the target has its own meta: the history's format, written when it opened).
        for table in [ViewStore.metaTable, ViewStore.quarantineTable, ViewHistory.windowsTable, ViewHistory.changesTable] {
            guard let from = table == ViewStore.quarantineTable ? (quarantine != meta ? quarantine : nil) : databases[table] ?? (table == ViewStore.metaTable ? meta : nil),
                  let to = table == ViewStore.quarantineTable ? out.quarantine : out.databases[table] ?? (table == ViewStore.metaTable ? out.meta : nil)
            else { continue }
            try copy(from, to: to, into: out, append: false)
        }
        for type in catalog.types {
            let derives = derived.contains(type.name.rawValue)
            for table in ViewCatalog.tables(of: type) {
                guard let from = databases[table], let to = out.databases[table] else { throw ViewError.unknownTable(table) }
                if let history = historyTables[table], let outHistory = out.historyTables[table] {
                    try copyHistory(history, to: outHistory, deriving: derives ? to : nil, into: out)
                }
                if !derives { try copy(from, to: to, into: out, append: true) }
            }
        }
        // Any other table the file holds (one this build's views do not open, a newer build's say) goes as it is.
        let known = Set([ViewStore.metaTable, ViewStore.quarantineTable, ViewHistory.windowsTable, ViewHistory.changesTable]
                        + catalog.tables + catalog.tables.map(ViewHistory.table))
        let others = try guarded { try environment.read { try $0.databaseNames() } }.filter { !known.contains($0) }
        if !others.isEmpty {
            let from = try environment.openDatabases(others, flags: [])
            let to = try out.environment.openDatabases(others, flags: .create)
            for name in others.sorted() { try copy(from[name]!, to: to[name]!, into: out, append: true) }
        }
        try out.environment.sync()
        try out.environment.shrinkToData()
    }

    /// Copies `from` into `to` of `out`, chunk by chunk, appended (keys in order, pages filled) or put.
    private func copy(_ from: Database, to: Database, into out: ViewStore, append: Bool) throws {
        try chunks(of: from, into: out, mark: {}, reset: { _ in }) { writing, key, value in
            if append { try writing.append(to, key, value) } else { try writing.put(to, key, value) }
        }
    }

    /// Copies the history table `from` into `to` of `out`, appended, and when `table` is given, appends each key's
    /// latest version that says present to it (the view's table derived from its history).
    private func copyHistory(_ from: Database, to: Database, deriving table: Database?, into out: ViewStore) throws {
        var keyBuffer: [UInt8] = []
        func damaged() -> ViewError { .damaged("\(from.name): a version is not one the history writes") }
        // The group (a key's versions) being copied and its last version so far, written to the table when the group
        // ends: kept across chunks as bytes.
        var group: (body: [UInt8], latest: [UInt8])?
        func emit(_ writing: TransactionScope) throws {
            guard let table, let g = group else { return }
            try g.latest.withUnsafeBytes { raw in
                guard let parsed = HistoryValue.parse(raw) else { throw damaged() }
                guard parsed.present else { return }
                if let key = parsed.key { return try writing.append(table, key, parsed.value) }
                guard g.body.withUnsafeBytes({ HistoryKey.decode(body: $0, into: &keyBuffer) }) else { throw damaged() }
                try keyBuffer.withUnsafeBytes { try writing.append(table, $0, parsed.value) }
            }
        }
        try chunks(of: from, into: out, mark: { group }, reset: { group = $0 }, finish: emit) { writing, key, value in
            if table != nil {
                guard let body = HistoryKey.body(of: key) else { throw damaged() }
                if let g = group, g.body.elementsEqual(body) {
                    group = (g.body, Array(value))
                } else {
                    try emit(writing)
                    group = (Array(body), Array(value))
                }
            }
            try writing.append(to, key, value)
        }
    }

    /// Calls `each` with every entry of `from`, in key order, in chunks of `publishChunk`: each chunk one read
    /// transaction here and one write transaction of `out` (`each` gets it), `finish` called in the last one. A write
    /// run again (the map full) starts from where its chunk began: `mark` says what the caller keeps across
    /// entries, `reset` puts it back.
    private func chunks<State>(of from: Database, into out: ViewStore, mark: () -> State, reset: (State) -> Void,
                               finish: (TransactionScope) throws -> Void = { _ in },
                               _ each: (TransactionScope, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        var after: [UInt8]?
        var done = false
        while !done {
            try out.environment.reserve(room: ViewStore.batchRoom(events: ViewStore.publishChunk, copies: 0))
            let start = (after, mark())
            try guarded { try environment.read { source in
                let reading = TransactionScope(source)
                defer { reading.end() }
                try out.environment.write { txn in
                    let writing = TransactionScope(txn)
                    defer { writing.end() }
                    after = start.0
                    reset(start.1)
                    var n = 0
                    done = true
                    try reading.scanBorrowed(from, from: after ?? []) { key, value in
                        if let a = after, a.elementsEqual(key) { return true }
                        guard n < ViewStore.publishChunk else {
                            done = false
                            return false
                        }
                        try each(writing, key, value)
                        after = Array(key)
                        n += 1
                        return true
                    }
                    if done { try finish(writing) }
                }
            } }
        }
    }
}
