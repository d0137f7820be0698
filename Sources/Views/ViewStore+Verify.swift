import EventLog
import Foundation
import LMDB

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
    /// core busy, as `verify --views` does with the search index).
    public func compareWithRebuild(twoCores: Bool = true, progress: ((UInt64, UInt64) -> Void)? = nil) throws
        -> (sequence: UInt64, differences: [Difference]) {
        let cps = try checkpoints()
        let seq = cps.values.min() ?? 0
        var diffs: [Difference] = []
        for (name, cp) in cps where cp != seq {
            diffs.append(Difference(view: name, table: "views.meta", detail: "checkpoint \(cp), others at \(seq)"))
        }
        let dir = FileManager.default.temporaryDirectory.path + "/mailstore-verify-views-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fresh = try ViewStore.scratch(in: dir, log: log, catalog: catalog, through: seq, twoCores: twoCores, progress: progress)
        for type in catalog.types {
            for table in ViewCatalog.tables(of: type) {
                diffs += try compare(table: table, view: type.name.rawValue, with: fresh)
            }
        }
        // Events quarantined live but folded by the rebuild (or the other way round) differ here.
        if quarantine != meta {
            diffs += try compare(table: ViewStore.quarantineTable, view: "views", with: fresh)
        }
        // The snapshots kept for time travel restore and are what their names say.
        if let snapshots { diffs += snapshots.check(log: log, catalog: catalog, scratch: dir) }
        return (seq, diffs)
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
        func show(_ k: UnsafeRawBufferPointer) -> String {
            String(decoding: k.prefix(200).map { $0 == 0 ? UInt8(ascii: "/") : ($0 < 32 || $0 > 126 ? UInt8(ascii: ".") : $0) }, as: UTF8.self)
        }
        return try guarded { try environment.read { liveTxn in
            try other.environment.read { freshTxn in
                try liveTxn.withCursor(mine) { live in
                    try freshTxn.withCursor(theirs) { fresh in
                        var out: [Difference] = []
                        var l = try live.first(), r = try fresh.first()
                        var walked = 0
                        while l != nil || r != nil, out.count < 5 {
                            // Both maps' pages read so far go from the resident size now and then (page cache:
                            // mapped again if touched), so a comparison holds a few MiB, not both stores.
                            walked += 1
                            if walked % ViewStore.releaseInterval == 0 {
                                environment.releaseResidentPages(over: Environment.residentFileBudget)
                                other.environment.releaseResidentPages(over: Environment.residentFileBudget)
                            }
                            let order: Int32
                            if let l, let r { order = ViewStore.compareBytes(l.key, r.key) } else { order = l == nil ? 1 : -1 }
                            if order < 0, let e = l {
                                out.append(Difference(view: view, table: table, detail: "key \(show(e.key)) only in the live view"))
                                l = try live.next()
                            } else if order > 0, let e = r {
                                out.append(Difference(view: view, table: table, detail: "key \(show(e.key)) missing from the live view"))
                                r = try fresh.next()
                            } else if let a = l, let b = r {
                                if ViewStore.compareBytes(a.value, b.value) != 0 {
                                    out.append(Difference(view: view, table: table, detail: "key \(show(a.key)) has a different value"))
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
