import EventLog
import Foundation
import LMDB
import Projections

extension ViewStore {
    /// A difference between the live views and views rebuilt from the log.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        /// The view.
        public var view: String
        /// The table.
        public var table: String
        /// What differs.
        public var detail: String

        public var description: String { "\(view): \(table): \(detail)" }

        /// A difference in `table` of `view`.
        public init(view: String, table: String, detail: String) {
            self.view = view
            self.table = table
            self.detail = detail
        }
    }

    /// Rebuilds every view from the log in a scratch folder, up to the live views' checkpoint, and
    /// compares the two table by table (every key and value). Returns the differences (at most a few
    /// per table), empty when the live views are exactly what the log gives.
    /// `twoCores`: whether the rebuild folds some views on a second thread (false when the caller keeps the other
    /// core busy, as `verify --views` does with the search index). `scratchFolder`: where the rebuild is made (a
    /// folder that does not exist yet, removed after); nil: in the system's temporary folder.
    public func compareWithRebuild(twoCores: Bool = true, scratchFolder: String? = nil,
                                   progress: ((UInt64, UInt64) -> Void)? = nil) throws
        -> (sequence: UInt64, differences: [Difference]) {
        waitForPendingClose()
        let cps = try checkpoints()
        let seq = cps.values.min() ?? 0
        var diffs: [Difference] = []
        for (name, cp) in cps where cp != seq {
            diffs.append(Difference(view: name, table: "views.meta", detail: "checkpoint \(cp), others at \(seq)"))
        }
        let dir = scratchFolder ?? FileManager.default.temporaryDirectory.path + "/mailstore-verify-views-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fresh = try ViewStore.scratch(in: dir, log: log, catalog: catalog, through: seq, twoCores: twoCores, progress: progress)
        // The walks read the live views in key order, which is their order in a published generation's file: with
        // read-ahead, not a read from the disk per page where the file is not cached (at 100K messages, 66,000).
        try environment.withReadAhead {
            for type in catalog.types {
                for table in ViewCatalog.tables(of: type) {
                    diffs += try compare(table: table, view: type.name.rawValue, with: fresh)
                }
            }
            // Events quarantined live but folded by the rebuild (or the other way round) differ here.
            if quarantine != meta {
                diffs += try compare(table: ViewStore.quarantineTable, view: "views", with: fresh)
            }
            // The history time travel reads: its latest versions are the views, its windows in order.
            diffs += try compareHistory(upTo: seq)
        }
        // What the walks left mapped goes now: the caller may wait a while for the search index's comparison (at 1M
        // messages ~40 s), holding them for nothing (a 1M `verify --views` peaked at 209 MiB there).
        environment.releaseResidentPages()
        return (seq, diffs)
    }

    /// Checks the views' history (`ViewHistory`) against the views: each table's latest versions must be exactly its
    /// entries (key for key, value for value; a key changed in the open window, whose version is written when it
    /// closes, is the view's already), the windows numbered 1, 2, ... with rising ends at or before
    /// `sequence` (the views' checkpoint). At most 5 differences per table. None when the views keep no history
    /// of this build's format (`stats` says so).
    package func compareHistory(upTo sequence: UInt64) throws -> [Difference] {
        guard let windows, try hasHistory() else { return [] }
        var diffs: [Difference] = []
        try guarded { try environment.read { txn in
            var expected: UInt32 = 1, previous: UInt64 = 0
            try txn.withCursor(windows) { c in
                var e = try c.first()
                while let entry = e, diffs.count < 5 {
                    if let w = ViewHistory.decode(entry.key, entry.value) {
                        if w.number != expected || w.end <= previous || w.end > sequence {
                            diffs.append(Difference(view: "views", table: ViewHistory.windowsTable,
                                                    detail: "window \(w.number) ending at \(w.end) follows window \(expected - 1) ending at \(previous) (views at \(sequence))"))
                        }
                        expected = w.number &+ 1
                        previous = w.end
                    } else {
                        diffs.append(Difference(view: "views", table: ViewHistory.windowsTable, detail: "an entry is not a window"))
                    }
                    e = try c.next()
                }
            }
        } }
        // The keys changed in the open window, not yet versions: their versions are written from the view when the
        // window closes, so the view is what they will say.
        let pending: [String: Set<TableKey>] = try changeLog.map { log in
            try guarded { try environment.read { txn in
                let scope = TransactionScope(txn)
                defer { scope.end() }
                var out: [String: Set<TableKey>] = [:]
                try log.forEachKey(scope) { table, key in out[table, default: []].insert(TableKey(Array(key))) }
                return out
            } }
        } ?? [:]
        // A read transaction per table, as the comparison with a rebuild has.
        for type in catalog.types {
            for table in ViewCatalog.tables(of: type) {
                guard let d = databases[table] else { throw ViewError.unknownTable(table) }
                try guarded { try environment.read { txn in
                    let scope = TransactionScope(txn)
                    defer { scope.end() }
                    let latest = HistoryReader(scope: scope, tables: historyTables, window: .max)
                    // Two walks of one map (the history and the table), released by the versions stepped over (a deleted
                    // key's are not handed on: the index's old entries at 1M are long runs of them).
                    latest.onSteps = { self.environment.releaseResidentPages(over: Environment.residentFileBudget) }
                    var found: [Difference] = []
                    func note(_ detail: String) { found.append(Difference(view: type.name.rawValue, table: ViewHistory.table(table), detail: detail)) }
                    do { try txn.withCursor(d) { live in
                        var l = try live.first()
                        let changed = pending[table] ?? []
                        /// Whether `k` changed in the open window (its version is written when the window closes).
                        func isPending(_ k: UnsafeRawBufferPointer) -> Bool { !changed.isEmpty && changed.contains(TableKey(Array(k))) }
                        // Values compared map their pages too: released past `releaseBytes` of them (long threads'
                        // records, ~1 MB each, had mapped ~260 MB between two steps' releases).
                        var comparedBytes = 0
                        try latest.scanBorrowed(table, from: []) { key, value in
                            while let e = l, ViewStore.compareBytes(e.key, key) < 0 {
                                if !isPending(e.key) { note("key \(ViewStore.show(e.key)) has no version") }
                                l = try live.next()
                            }
                            if let e = l, ViewStore.compareBytes(e.key, key) == 0 {
                                comparedBytes += e.value.count + value.count
                                if comparedBytes >= ViewStore.releaseBytes {
                                    comparedBytes = 0
                                    self.environment.releaseResidentPages(over: Environment.residentFileBudget)
                                }
                                if ViewStore.compareBytes(e.value, value) != 0 && !isPending(key) {
                                    note("key \(ViewStore.show(key)): the latest version differs from the view")
                                }
                                l = try live.next()
                            } else if !isPending(key) {
                                note("key \(ViewStore.show(key)): a version of an entry the view does not have")
                            }
                            return found.count < 5
                        }
                        while let e = l, found.count < 5 {
                            if !isPending(e.key) { note("key \(ViewStore.show(e.key)) has no version") }
                            l = try live.next()
                        }
                    } } catch let e as ViewError {
                        // A version that is not one: named here, as a difference (time travel refuses it).
                        guard case .damaged(let detail) = e else { throw e }
                        note(detail)
                    }
                    diffs += found
                } }
            }
        }
        return diffs
    }

    /// Compares one table of the two environments by walking both in key order with a cursor each (one read
    /// transaction per side, per table): memory stays bounded whatever the table's size. At most 5
    /// differences per table.
    private func compare(table: String, view: String, with other: ViewStore) throws -> [Difference] {
        let isQuarantine = table == ViewStore.quarantineTable
        guard let mine = isQuarantine ? quarantine : databases[table] else { throw ViewError.unknownTable(table) }
        guard let theirs = isQuarantine ? (other.quarantine != other.meta ? other.quarantine : nil) : other.databases[table] else {
            throw ViewError.unknownTable(table)
        }
        return try guarded { try environment.read { liveTxn in
            try other.environment.read { freshTxn in
                try liveTxn.withCursor(mine) { live in
                    try freshTxn.withCursor(theirs) { fresh in
                        var out: [Difference] = []
                        var l = try live.first(), r = try fresh.first()
                        var walked = 0, walkedBytes = 0
                        while l != nil || r != nil, out.count < 5 {
                            // Both maps' pages read so far go from the resident size now and then (page cache:
                            // mapped again if touched), so a comparison holds a few MiB, not both stores: every
                            // `releaseInterval` entries, or `releaseBytes` of values (a long thread's record is ~1 MB).
                            walked += 1
                            walkedBytes += (l?.value.count ?? 0) + (r?.value.count ?? 0)
                            if walked % ViewStore.releaseInterval == 0 || walkedBytes >= ViewStore.releaseBytes {
                                walkedBytes = 0
                                environment.releaseResidentPages(over: Environment.residentFileBudget)
                                other.environment.releaseResidentPages(over: Environment.residentFileBudget)
                            }
                            let order: Int32
                            if let l, let r { order = ViewStore.compareBytes(l.key, r.key) } else { order = l == nil ? 1 : -1 }
                            if order < 0, let e = l {
                                out.append(Difference(view: view, table: table, detail: "key \(ViewStore.show(e.key)) only in the live view"))
                                l = try live.next()
                            } else if order > 0, let e = r {
                                out.append(Difference(view: view, table: table, detail: "key \(ViewStore.show(e.key)) missing from the live view"))
                                r = try fresh.next()
                            } else if let a = l, let b = r {
                                if ViewStore.compareBytes(a.value, b.value) != 0 {
                                    out.append(Difference(view: view, table: table, detail: "key \(ViewStore.show(a.key)) has a different value"))
                                }
                                l = try live.next()
                                r = try fresh.next()
                            }
                        }
                        return out
                    }
                }
            }
        } }
    }

    /// A key as printable text: zero bytes as `/`, other bytes outside printable ASCII as `.`, at most 200.
    static func show(_ k: UnsafeRawBufferPointer) -> String {
        String(decoding: k.prefix(200).map { $0 == 0 ? UInt8(ascii: "/") : ($0 < 32 || $0 > 126 ? UInt8(ascii: ".") : $0) }, as: UTF8.self)
    }

    /// LMDB's default key order: bytes compared as unsigned, a prefix first.
    static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int32 {
        let n = min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, n)
            if c != 0 { return c }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}

extension ViewStore {
    /// Every entry of `table`, in key order (for comparisons and tools).
    public func entries(of table: String, _ body: ([UInt8], [UInt8]) throws -> Void) throws {
        guard databases[table] != nil || table == ViewStore.quarantineTable else { throw ViewError.unknownTable(table) }
        try read { snapshot in
            try snapshot.reader.scan(table, from: []) { k, v in
                try body(k, v)
                return true
            }
        }
    }
}
