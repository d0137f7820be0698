import EventLog
import Foundation
import LMDB

extension ViewStore {
    package static func currentGeneration(_ root: String) -> String? {
        guard let bytes = StoreDirectory.readSmallFile(root + "/" + currentFile), let text = String(validating: bytes, as: UTF8.self) else {
            return nil
        }
        let g = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // Only a plain generation name: CURRENT is a file on disk, hostile like any other.
        guard g.hasPrefix("gen-"), let n = Int(g.dropFirst(4)), n > 0, g.count <= 24 else { return nil }
        return g
    }

    /// The generation numbers present in `root` (built or half-built) and named by CURRENT.
    static func generationNumbers(_ root: String) -> [Int] {
        var out = (try? FileManager.default.contentsOfDirectory(atPath: root))?.compactMap { name -> Int? in
            guard name.hasPrefix("gen-") else { return nil }
            let digits = name.dropFirst(4).prefix { $0.isNumber }
            return Int(digits)
        } ?? []
        if let g = currentGeneration(root), let n = Int(g.dropFirst(4)) { out.append(n) }
        return out
    }

    /// Refuses a views folder `root` that is not a folder (a file in its place), saying what it is and what to do: every
    /// command that uses the views had said "another mailstore process is rebuilding the views", then failed with a
    /// raw file-system error (NSCocoaErrorDomain 512). Nothing where `root` does not exist (it is made).
    package static func checkFolder(_ root: String) throws {
        var st = stat()
        guard stat(root, &st) == 0, st.st_mode & S_IFMT != S_IFDIR else { return }
        throw StoreError.io(root, "is not a folder, where the store keeps its views (disposable: rebuilt from the log); nothing "
                            + "was changed: move it away (it is not mailstore's), then run the command again")
    }

    /// Moves a `CURRENT` of `root` that is a folder aside, to `CURRENT.aside-N`, so that the switch to a new generation
    /// can write it (a file of any other kind is renamed over) (`rename` over a folder fails: every command, `replay` included,
    /// had failed "cannot write: Is a directory", so the documented mend did not mend). Told to `notice`.
    static func moveCurrentAsideIfAFolder(_ root: String, notice: (String) -> Void) throws {
        let current = root + "/" + currentFile
        var st = stat()
        guard lstat(current, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return }
        for n in 1...64 where access(current + ".aside-\(n)", F_OK) != 0 {
            guard rename(current, current + ".aside-\(n)") == 0 else { break }
            notice("views/\(currentFile) was a folder: moved aside to views/\(currentFile).aside-\(n) (remove it), and written anew")
            return
        }
        throw StoreError.io(current, "is a folder, and cannot be moved aside (\(String(cString: strerror(errno)))): move it away, then run `mailstore replay`")
    }

    /// Removes half-built generations. Only called while holding the build lock, so their builders are gone.
    static func removeStaleBuilds(_ root: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where name.hasSuffix(".building") || name.hasSuffix(".compact") {
            try? FileManager.default.removeItem(atPath: root + "/" + name)
        }
    }

    /// Takes the build lock, waiting (and saying so) while another process builds.
    static func acquireBuildLock(_ root: String, notice: (String) -> Void) throws -> FileLock {
        let path = root + "/" + buildLockFile
        if let lock = FileLock.acquire(path, exclusive: true, wait: false) { return lock }
        notice("another mailstore process is rebuilding the views; waiting for it to finish")
        guard let lock = FileLock.acquire(path, exclusive: true, wait: true) else {
            throw ViewError.busy("cannot lock \(path): \(String(cString: strerror(errno)))")
        }
        return lock
    }

    /// Builds a new generation from the log (all views, or only `only` with the others copied from the
    /// current generation: `only` folded as far as the copied ones stand), then makes it current and, with views copied,
    /// catches it up as a live generation. The current generation keeps serving until the switch.
    /// With `unlessFresh`, a generation that another process finished meanwhile (current, with no stale
    /// view among `only`, or at all) is used instead of building again; with `unlessBehindLess`, a current generation
    /// with no stale view that is no longer that far behind the log (another process rebuilt or caught it up meanwhile).
    @discardableResult
    static func rebuild(root: String, log: EventLog, catalog: ViewCatalog, only: [String]? = nil, unlessFresh: Bool = false,
                        unlessBehindLess: UInt64? = nil,
                        twoCores: Bool = true, secondCoreFree: (@Sendable () -> Bool)? = nil, notice: (String) -> Void = { _ in },
                        progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        let buildLock = try acquireBuildLock(root, notice: notice)
        defer { buildLock.unlock() }
        // Views of another log (`logMismatch`) are no base: neither served nor copied for a partial rebuild.
        // A link that cannot be read (a damaged page) makes no base either: the rebuild must not fail on what it mends.
        let current = try openCurrent(root: root, log: log, catalog: catalog, notice: { _ in })
            .flatMap { (try? $0.logMismatch()) == .some(nil) ? $0 : nil }
        if unlessFresh, let current, try current.staleViews().isEmpty { return current }
        if let minimum = unlessBehindLess, let current, try current.staleViews().isEmpty {
            let (behind, head) = try eventsBehind(current, log: log)
            if !rebuilds(behind: behind, head: head, from: minimum) { return current }
        }
        removeStaleBuilds(root)
        let gen = "gen-\((generationNumbers(root).max() ?? 0) + 1)"
        let building = root + "/" + gen + ".building"
        let compacted = root + "/" + gen + ".compact"
        try StoreDirectory.makePrivateDirectory(building)
        // Every view rebuilt is a build from empty: nothing to copy. With no current generation, every view is built
        // from empty here (folding those not named into a build store as if they held data lost history versions).
        var only = current == nil ? nil : only.flatMap { names in catalog.types.allSatisfy { names.contains($0.name.rawValue) } ? nil : names }
        // How far the build folds: with views copied, only as far as they stand, so that it folds only the views
        // rebuilt; the new generation catches the copied ones up once it serves (below), as any live fold does. Folded
        // here, the copied views' windows closed from their tables while their changes were held behind (`writesBehind`)
        // or spilled, not yet in those tables: the closes wrote no version for such keys (`verify --views`: "has no
        // version").
        var through: UInt64?
        // A partial rebuild copies the views kept from the current file; when that file is damaged (the copy, or the
        // ordered writes of its tables, meet a bad page), every view is built from the log instead: `replay --view X`,
        // the documented mend for a damaged view, had ended saying to restore the file from a backup.
        while true {
            do {
                if let names = only, let current {
                    // The copy reads every page of the current views, and emptying a view frees every page of its
                    // tables: both unmapped as they go (`ResidentPageReleaser`), or the whole views file (~300 MiB
                    // at 100K messages) becomes resident.
                    // Read ahead: the copy walks every B-tree in key order, and a published generation's pages lie in that
                    // order in its file (the map otherwise reads one page per fault).
                    try ResidentPageReleaser.during(current.environment) {
                        try current.environment.withReadAhead { try current.environment.copy(to: building) }
                    }
                    let copied = try ViewStore(path: building, log: log, catalog: catalog)
                    try ResidentPageReleaser.during(copied.environment) { try copied.reset(views: names) }
                    through = try copied.checkpoints().filter { !names.contains($0.key) }.values.min()
                }
                // Written by `pwrite` at each commit rather than through the map, where each page a write-out changes
                // faults, through the file system's `page_mkwrite` (a third of a 100K `replay --view threads`; docs/
                // operations.md, "Memory while folding").
                let fresh = try ViewStore(path: building, log: log, catalog: catalog, writeMap: false)
                fresh.foldsOnTwoCores = twoCores
                fresh.secondCoreFree = secondCoreFree
                fresh.writesBehind = true
                fresh.writeBehindLimit = ViewStore.rebuildWriteBehindBudget
                // Its write-outs spill sorted runs, merged into the B-trees a dozen at a time (`SpilledRuns`), the last ones
                // into the copy `publish` writes.
                fresh.spillsRuns = true
                fresh.mergesRunsWhenPublished = true
                // Every view folded here starts empty (a new folder, or emptied by `reset` after the copy), and
                // the folder is this build's alone until the switch below.
                fresh.buildsFromEmpty(only ?? catalog.types.map { $0.name.rawValue })
                // A scan of the whole log: with the kernel's read-ahead even where the log was opened for lookups.
                try log.environment.withUsualReadAhead { try fresh.catchUp(through: through, progress: progress) }
                // The generation serves from a copy written in key order (`publish`): a bulk fold leaves a third to a half
                // of its file in free pages (each batch's copies on write need pages that the batches before still held),
                // which LMDB reuses but never gives back, and its history's B-trees about half full; the views built
                // from their history get their tables in the same pass.
                try StoreDirectory.makePrivateDirectory(compacted)
                try fresh.publish(to: compacted)
                break
            } catch {
                try? FileManager.default.removeItem(atPath: building)
                try? FileManager.default.removeItem(atPath: compacted)
                guard let names = only, ViewStore.isDamage(error) else { throw error }
                notice("the views file is damaged (\(error)): rebuilding every view from the log, not only \(names.joined(separator: ", "))")
                try StoreDirectory.makePrivateDirectory(building)
                only = nil
                through = nil
            }
        }
        try? FileManager.default.removeItem(atPath: building)
        // The switch: no process opens a generation meanwhile.
        let final = root + "/" + gen
        try {
            let switchLock = FileLock.acquire(root + "/" + lockFile, exclusive: true)
            defer { switchLock?.unlock() }
            guard rename(compacted, final) == 0 else { throw StoreError.io(final, String(cString: strerror(errno))) }
            try moveCurrentAsideIfAFolder(root, notice: notice)
            try StoreDirectory.writePrivateFile(root + "/" + currentFile, contents: gen + "\n")
            // Older generations go (a process that has one open keeps reading its files until it closes them).
            for n in generationNumbers(root) where "gen-\(n)" != gen {
                try? FileManager.default.removeItem(atPath: root + "/gen-\(n)")
            }
        }()
        // No other build removes it meanwhile: this one holds the build lock until it returns.
        let served = try ViewStore(path: final, log: log, catalog: catalog)
        if through != nil { try served.catchUp() }
        return served
    }

    /// Whether `error` says a views file is damaged (a bad page, keys out of order), which a build from the log mends.
    static func isDamage(_ error: any Error) -> Bool {
        if let e = error as? LMDBError { return e.mayBeDamage }
        if case ViewError.damaged? = error as? ViewError { return true }
        return false
    }

    /// Empties the tables, their history, checkpoints and quarantined events of `views`.
    /// A table of one of `views` that its projector no longer opens (a schema that dropped it, such as
    /// `unread.messages` in unread schema 4) is deleted with its pages and its history: the copy it came with would
    /// otherwise keep it in every later generation. The history's windows stay: the views folded again write their
    /// versions into the windows their events lie in (`ViewHistory`).
    func reset(views: [String]) throws {
        try environment.write { txn in
            let present = try txn.databaseNames()
            for name in views {
                guard let type = catalog.type(named: name) else { throw ViewError.unknownView(name) }
                let tables = ViewCatalog.tables(of: type)
                for t in tables {
                    try txn.clear(databases[t]!)
                    if let h = historyTables[t] { try txn.clear(h) }
                }
                for retired in present where retired.hasPrefix(name + ".") && !tables.contains(retired) {
                    try txn.drop(named: retired)
                    try txn.drop(named: ViewHistory.table(retired))
                }
                _ = try txn.delete(meta, key: Array(name.utf8))
            }
            // Their changes not yet written as versions go too: folded again, they write their versions anew.
            if let changeLog {
                let scope = TransactionScope(txn)
                defer { scope.end() }
                var tables = Set<String>()
                for name in views { if let type = catalog.type(named: name) { tables.formUnion(ViewCatalog.tables(of: type)) } }
                try changeLog.remove(tables: tables, scope)
            }
            guard quarantine != meta else { return }
            var drop: [[UInt8]] = []
            try txn.withCursor(quarantine) { c in
                var e = try c.first()
                while let entry = e {
                    if let q = QuarantinedEvent(key: Array(entry.key), value: []), q.view == "*" || views.contains(q.view) {
                        drop.append(Array(entry.key))
                    }
                    e = try c.next()
                }
            }
            for k in drop { _ = try txn.delete(quarantine, key: k) }
        }
    }

    /// Rebuilds views blue/green (`mailstore replay`): all of them, or only `views`. Events quarantined
    /// before are folded again. Serialized with other builds; readers keep being served meanwhile.
    /// `twoCores`: whether big batches fold some views on a second thread (false when the caller keeps the other
    /// core busy, as `MailStore.replay` does with the search index); `secondCoreFree` then says when that core is
    /// free again (`ViewStore.secondCoreFree`).
    package static func replay(store: StoreDirectory, log: EventLog, catalog: ViewCatalog = .standard, views: [String]? = nil,
                              twoCores: Bool = true, secondCoreFree: (@Sendable () -> Bool)? = nil,
                              notice: (String) -> Void = { _ in },
                              progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        let root = store.viewsPath
        try checkFolder(root)
        if !FileManager.default.fileExists(atPath: root) { try StoreDirectory.makePrivateDirectory(root) }
        if let views {
            for v in views where catalog.type(named: v) == nil { throw ViewError.unknownView(v) }
        }
        return try rebuild(root: root, log: log, catalog: catalog, only: views, twoCores: twoCores, secondCoreFree: secondCoreFree,
                           notice: notice, progress: progress)
    }

    /// Builds every view (or only those named in `only`) from the log's start up to `sequence` in a scratch folder
    /// (verification; time travel in views that keep no history), keeping no history. With `only`, the store
    /// returned holds only those views: reading another throws `ViewError.unknownTable`. The caller removes
    /// `folder` when done. `writesBehind`: the fold holds its writes in memory across batches (`WriteBehind`).
    package static func scratch(in folder: String, log: EventLog, catalog: ViewCatalog = .standard, through sequence: UInt64,
                               only: [String]? = nil, twoCores: Bool = true, writesBehind: Bool = false,
                               progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        let folded = try only.map { try catalog.restricted(to: $0) } ?? catalog
        try StoreDirectory.makePrivateDirectory(folder)
        let views = try ViewStore(path: folder, log: log, catalog: folded, history: false)
        views.foldsOnTwoCores = twoCores
        views.writesBehind = writesBehind
        // The folder is new (the caller's), its views empty.
        views.buildsFromEmpty(folded.types.map { $0.name.rawValue })
        try views.catchUp(through: sequence, progress: progress)
        try views.environment.shrinkToData()
        return views
    }
}
