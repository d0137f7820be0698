import EventLog
import EventModel
import Foundation
import LMDB
import Projections

/// The views environment: every projector's tables and checkpoints, kept apart from the log and
/// rebuilt from it whenever needed.
///
/// Generations: `STORE/views/CURRENT` names the folder (`gen-N`) that serves readers. A rebuild
/// (`replay`) builds `gen-N+1` while `gen-N` keeps serving, then switches `CURRENT` atomically (rename)
/// and removes the old folder; killed midway, the old generation is intact and the half-built folder is
/// removed by the next run.
public final class ViewStore: @unchecked Sendable {
    /// The views environment of the current generation.
    public let environment: Environment
    /// The folder of that environment.
    public let path: String
    let log: EventLog
    let databases: [String: Database]
    let meta: Database

    /// Events folded per write transaction during catch-up (100K: a rebuild of the generated 100K-message
    /// corpus ran at 16K events/s with it, 11.5K with 20K batches, as deep threads are recomputed per batch).
    static let batchSize = 100_000
    static let currentFile = "CURRENT"

    init(path: String, log: EventLog, readOnly: Bool = false) throws {
        var o = Environment.Options()
        o.mapSize = 1 << 30
        o.maxDatabases = UInt32(ViewCatalog.tables.count + 4)
        o.readOnly = readOnly
        // Views are rebuilt from the log: no fsync per commit (MDB_NOSYNC). A killed process loses nothing; a
        // machine crash may lose the last batches, which the next open folds again from the checkpoint written
        // with them, or, on a file system that does not keep write order, damage the file: a file that fails to
        // open is rebuilt, and `verify --views` finds any other difference (`replay` rebuilds).
        o.noSync = true
        environment = try Environment(path: path, options: o)
        let create: Database.Flags = readOnly ? [] : .create
        var dbs = try environment.openDatabases(ViewCatalog.tables + ["views.meta"], flags: create)
        meta = dbs.removeValue(forKey: "views.meta")!
        databases = dbs
        self.log = log
        self.path = path
    }

    // MARK: - Opening

    /// Opens the views of `store`, rebuilding them offline when they are missing, fail to open, or were
    /// written with another schema version, and folds the log's new events into them. `notice` is told
    /// about every rebuild.
    public static func open(store: StoreDirectory, log: EventLog, notice: (String) -> Void = { _ in },
                            progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        let root = store.viewsPath
        try StoreDirectory.makePrivateDirectory(root)
        removeStaleBuilds(root)
        var views: ViewStore
        if let gen = currentGeneration(root), FileManager.default.fileExists(atPath: root + "/" + gen + "/data.mdb") {
            do {
                views = try ViewStore(path: root + "/" + gen, log: log)
            } catch {
                notice("the views in \(gen) fail to open (\(error)); rebuilding them from the log")
                views = try rebuild(root: root, log: log, progress: progress)
            }
        } else {
            if currentGeneration(root) != nil { notice("the views' files are missing; rebuilding them from the log") }
            views = try rebuild(root: root, log: log, progress: progress)
        }
        let stale = try views.staleViews()
        if !stale.isEmpty {
            notice("view schema changed for \(stale.joined(separator: ", ")); rebuilding \(stale.count == 1 ? "it" : "them") from the log")
            views = try rebuild(root: root, log: log, only: stale, from: views, progress: progress)
        }
        try views.catchUp(progress: progress)
        return views
    }

    /// The views whose stored schema version differs from this build's.
    func staleViews() throws -> [String] {
        try environment.read { txn in
            try ViewCatalog.all.compactMap { type in
                guard let raw = try txn.getBytes(meta, key: Array(type.name.utf8)), let m = ViewMeta.decode(raw) else { return nil }
                return m.schemaVersion == type.schemaVersion ? nil : type.name
            }
        }
    }

    /// The checkpoint of each view (0 when never built).
    public func checkpoints() throws -> [String: UInt64] {
        try environment.read { txn in
            var out: [String: UInt64] = [:]
            for type in ViewCatalog.all {
                out[type.name] = try txn.getBytes(meta, key: Array(type.name.utf8)).flatMap(ViewMeta.decode)?.checkpoint ?? 0
            }
            return out
        }
    }

    // MARK: - Folding

    /// Folds every event after each view's checkpoint, up to `limit` (default: the log's head).
    public func catchUp(through limit: UInt64? = nil, progress: ((UInt64, UInt64) -> Void)? = nil) throws {
        let head = try limit ?? log.head().sequence
        let start = (try checkpoints().values.min() ?? 0)
        guard start < head else { return }
        let store = LMDBKeyValueStore(databases: databases)
        let projectors = ViewCatalog.make(ViewCatalog.all, store: store)
        var batch: [(StoredEvent, DomainEvent)] = []
        batch.reserveCapacity(ViewStore.batchSize)
        var done: UInt64 = 0
        func commit() throws {
            guard let last = batch.last?.0.envelope.sequence else { return }
            try environment.write { txn in
                let scope = TransactionScope(txn)
                store.scope = scope
                defer {
                    scope.end()
                    store.scope = nil
                }
                for p in projectors { p.discard() }
                var checkpoints: [String: UInt64] = [:]
                for (i, p) in projectors.enumerated() {
                    let name = ViewCatalog.all[i].name
                    let cp = try scope.get(meta, Array(name.utf8)).flatMap(ViewMeta.decode)?.checkpoint ?? 0
                    checkpoints[name] = cp
                    for (ev, decoded) in batch where ev.envelope.sequence > cp { try p.apply(ev, decoded) }
                    try p.flush()
                    if last > cp {
                        try scope.put(meta, Array(name.utf8), ViewMeta(schemaVersion: ViewCatalog.all[i].schemaVersion, checkpoint: last).encoded)
                    }
                }
            }
            done += UInt64(batch.count)
            progress?(done, head - start)
            batch.removeAll(keepingCapacity: true)
        }
        // (Decoding on both cores was tried: glibc malloc contention made it slower than one.)
        try log.scan(from: start + 1) { ev in
            if ev.envelope.sequence > head { return false }
            batch.append((ev, try ev.decode()))
            if batch.count >= ViewStore.batchSize { try commit() }
            return true
        }
        try commit()
    }

    // MARK: - Generations

    static func currentGeneration(_ root: String) -> String? {
        guard let text = try? String(contentsOfFile: root + "/" + currentFile, encoding: .utf8) else { return nil }
        let g = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return g.isEmpty ? nil : g
    }

    static func removeStaleBuilds(_ root: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where name.hasSuffix(".building") {
            try? FileManager.default.removeItem(atPath: root + "/" + name)
        }
    }

    static func nextGeneration(_ root: String) -> String {
        let n = currentGeneration(root).flatMap { Int($0.dropFirst(4)) } ?? 0
        return "gen-\(n + 1)"
    }

    /// Builds a new generation from the log (all views, or only `only` with the others copied from
    /// `from`), then makes it current. The current generation keeps serving until the switch.
    @discardableResult
    static func rebuild(root: String, log: EventLog, only: [String]? = nil, from old: ViewStore? = nil,
                        progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        let gen = nextGeneration(root)
        let building = root + "/" + gen + ".building"
        try? FileManager.default.removeItem(atPath: building)
        try StoreDirectory.makePrivateDirectory(building)
        if let only, let old {
            try old.environment.copy(to: building)
            let copy = try ViewStore(path: building, log: log)
            try copy.reset(views: only)
        }
        do {
            let fresh = try ViewStore(path: building, log: log)
            try fresh.catchUp(progress: progress)
            try fresh.environment.sync()
        }
        let previous = currentGeneration(root)
        let final = root + "/" + gen
        guard rename(building, final) == 0 else { throw StoreError.io(final, String(cString: strerror(errno))) }
        try StoreDirectory.writePrivateFile(root + "/" + currentFile, contents: gen + "\n")
        if let previous, previous != gen { try? FileManager.default.removeItem(atPath: root + "/" + previous) }
        return try ViewStore(path: final, log: log)
    }

    /// Empties the tables and checkpoints of `views`.
    func reset(views: [String]) throws {
        try environment.write { txn in
            for name in views {
                guard let type = ViewCatalog.type(named: name) else { throw ViewError.unknownView(name) }
                for t in type.tables { try txn.clear(databases[t]!) }
                _ = try txn.delete(meta, key: Array(name.utf8))
            }
        }
    }

    /// Rebuilds views blue/green (`mailstore replay`): all of them, or only `views`.
    public static func replay(store: StoreDirectory, log: EventLog, views: [String]? = nil,
                              progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        let root = store.viewsPath
        try StoreDirectory.makePrivateDirectory(root)
        removeStaleBuilds(root)
        if let views {
            for v in views where ViewCatalog.type(named: v) == nil { throw ViewError.unknownView(v) }
            if let gen = currentGeneration(root), let current = try? ViewStore(path: root + "/" + gen, log: log) {
                return try rebuild(root: root, log: log, only: views, from: current, progress: progress)
            }
        }
        return try rebuild(root: root, log: log, progress: progress)
    }

    /// Builds every view from the log up to `sequence` in a scratch folder (time travel, verification).
    /// The caller removes `folder` when done.
    public static func scratch(in folder: String, log: EventLog, through sequence: UInt64,
                               progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        try StoreDirectory.makePrivateDirectory(folder)
        let views = try ViewStore(path: folder, log: log)
        try views.catchUp(through: sequence, progress: progress)
        return views
    }
}
