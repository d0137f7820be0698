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
    }

    /// Rebuilds every view from the log in a scratch folder, up to the live views' checkpoint, and
    /// compares the two table by table (every key and value). Returns the differences (at most a few
    /// per table), empty when the live views are exactly what the log gives.
    public func compareWithRebuild(progress: ((UInt64, UInt64) -> Void)? = nil) throws -> (sequence: UInt64, differences: [Difference]) {
        let cps = try checkpoints()
        let seq = cps.values.min() ?? 0
        var diffs: [Difference] = []
        for (name, cp) in cps where cp != seq {
            diffs.append(Difference(view: name, table: "views.meta", detail: "checkpoint \(cp), others at \(seq)"))
        }
        let dir = FileManager.default.temporaryDirectory.path + "/mailstore-verify-views-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fresh = try ViewStore.scratch(in: dir, log: log, catalog: catalog, through: seq, progress: progress)
        for type in catalog.types {
            for table in ViewCatalog.tables(of: type) {
                diffs += try compare(table: table, view: type.name.rawValue, with: fresh)
            }
        }
        // Events quarantined live but folded by the rebuild (or the other way round) differ here.
        if quarantine != meta {
            diffs += try compare(table: ViewStore.quarantineTable, view: "views", with: fresh)
        }
        return (seq, diffs)
    }

    private func compare(table: String, view: String, with other: ViewStore) throws -> [Difference] {
        var live: [([UInt8], [UInt8])] = []
        var rebuilt: [([UInt8], [UInt8])] = []
        try entries(of: table) { live.append(($0, $1)) }
        try other.entries(of: table) { rebuilt.append(($0, $1)) }
        var out: [Difference] = []
        var i = 0, j = 0
        func show(_ k: [UInt8]) -> String {
            String(decoding: k.map { $0 == 0 ? UInt8(ascii: "/") : ($0 < 32 || $0 > 126 ? UInt8(ascii: ".") : $0) }, as: UTF8.self)
        }
        while (i < live.count || j < rebuilt.count) && out.count < 5 {
            if j >= rebuilt.count || (i < live.count && live[i].0.lexicographicallyPrecedes(rebuilt[j].0)) {
                out.append(Difference(view: view, table: table, detail: "key \(show(live[i].0)) only in the live view"))
                i += 1
            } else if i >= live.count || rebuilt[j].0.lexicographicallyPrecedes(live[i].0) {
                out.append(Difference(view: view, table: table, detail: "key \(show(rebuilt[j].0)) missing from the live view"))
                j += 1
            } else {
                if live[i].1 != rebuilt[j].1 {
                    out.append(Difference(view: view, table: table, detail: "key \(show(live[i].0)) has a different value"))
                }
                i += 1
                j += 1
            }
        }
        return out
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
