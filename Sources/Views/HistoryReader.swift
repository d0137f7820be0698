import LMDB
import Projections

/// The views as they stood at the end of one window of their history (`ViewHistory`): a table's entry is its
/// latest version written in that window or an earlier one, absent when that version says deleted or there is
/// none. Reads one read transaction of the views environment (bound for its lifetime), never the view tables
/// themselves.
final class HistoryReader: KeyValueReader {
    private let scope: TransactionScope
    /// Each view table's history table, by the view table's name (only the tables of the views that may be read).
    private let tables: [String: Database]
    /// The window read at: versions of later windows are not seen.
    let window: UInt32
    private var target: [UInt8] = []
    private var keyBuffer: [UInt8] = []
    /// Called every `stepInterval` versions a scan steps over (`scanBorrowed`), whatever it hands on: a scan that
    /// steps over long runs of versions it does not hand on (keys deleted, versions of earlier windows) maps their
    /// pages meanwhile, and its caller releases them here (`verify --views` at 1M: 123 -> 202 MiB within a second
    /// of its history's walk, where it released every 512 versions handed on).
    var onSteps: (() -> Void)?
    /// Versions stepped over between two calls of `onSteps` (tests set fewer).
    var stepInterval = 512
    /// Versions stepped over by the scans of this reader (for `onSteps`; tests read it).
    private(set) var steps = 0

    init(scope: TransactionScope, tables: [String: Database], window: UInt32) {
        self.scope = scope
        self.tables = tables
        self.window = window
    }

    private func db(_ table: String) throws -> Database {
        guard let d = tables[table] else { throw ViewError.unknownTable(table) }
        return d
    }

    private static func damaged(_ db: Database) -> ViewError {
        .damaged("\(db.name): a version's key or value is not one the history writes")
    }

    func get(_ table: String, _ key: [UInt8]) throws -> [UInt8]? {
        try key.withUnsafeBytes { try version(table, $0) }.flatMap { $0.present ? Array($0.value) : nil }
    }

    /// The latest version of `key` at this window (nil: none), its buffers valid while the transaction lasts.
    func version(_ table: String, _ key: UnsafeRawBufferPointer) throws -> HistoryValue.Parsed? {
        let d = try db(table)
        // Windows are numbered from 1: before the first one ends, nothing was.
        guard window > 0 else { return nil }
        HistoryKey.encode(key, window: window, into: &target)
        let bodyCount = target.count - HistoryKey.windowBytes
        return try target.withUnsafeBytes { t -> HistoryValue.Parsed? in
            try scope.withCursor(d) { c -> HistoryValue.Parsed? in
                var entry = try c.seek(atLeast: t)
                if let e = entry, ViewStore.compareBytes(e.key, t) == 0 {
                    // Written in this very window.
                } else {
                    entry = entry == nil ? try c.last() : try c.previous()
                }
                guard let e = entry, e.key.count == t.count,
                      ViewStore.compareBytes(UnsafeRawBufferPointer(rebasing: e.key[0..<bodyCount]),
                                             UnsafeRawBufferPointer(rebasing: t[0..<bodyCount])) == 0 else { return nil }
                guard let parsed = HistoryValue.parse(e.value) else { throw HistoryReader.damaged(d) }
                return parsed
            }
        }
    }

    func scan(_ table: String, from start: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try scanBorrowed(table, from: start) { k, v in try body(Array(k), Array(v)) }
    }

    func scanBorrowed(_ table: String, from start: [UInt8],
                      _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        let d = try db(table)
        guard window > 0 else { return }
        target.removeAll(keepingCapacity: true)
        if !start.isEmpty { start.withUnsafeBytes { _ = HistoryKey.appendBody(of: $0, to: &target) } }
        try target.withUnsafeBytes { t in
            try scope.withCursor(d) { c in
                // The versions of one key lie together, oldest first: the last one at or before the window speaks.
                var groupBody: UnsafeRawBufferPointer?
                var best: UnsafeRawBufferPointer?
                var bestBody: UnsafeRawBufferPointer?
                /// Hands the group's version to `body` when it says present; false when `body` stopped.
                func emit() throws -> Bool {
                    guard let stored = best, let entryBody = bestBody else { return true }
                    guard let parsed = HistoryValue.parse(stored) else { throw HistoryReader.damaged(d) }
                    guard parsed.present else { return true }
                    if let key = parsed.key { return try body(key, parsed.value) }
                    guard HistoryKey.decode(body: entryBody, into: &keyBuffer) else { throw HistoryReader.damaged(d) }
                    return try keyBuffer.withUnsafeBytes { try body($0, parsed.value) }
                }
                var entry = t.isEmpty ? try c.first() : try c.seek(atLeast: t)
                while let e = entry {
                    guard let entryBody = HistoryKey.body(of: e.key), let w = HistoryKey.window(of: e.key) else {
                        throw HistoryReader.damaged(d)
                    }
                    if groupBody == nil || ViewStore.compareBytes(groupBody!, entryBody) != 0 {
                        guard try emit() else { return }
                        groupBody = entryBody
                        best = nil
                        bestBody = nil
                    }
                    if w <= window {
                        best = e.value
                        bestBody = entryBody
                    }
                    steps += 1
                    if steps % stepInterval == 0 { onSteps?() }
                    entry = try c.next()
                }
                _ = try emit()
            }
        }
    }
}
