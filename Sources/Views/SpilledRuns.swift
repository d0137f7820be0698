import EventLog
import Foundation
import Glibc
import Projections

/// The table changes a generation being built (`replay`, `verify --views`, a schema upgrade) has written out but not
/// yet into its B-trees: each write-out becomes a sorted run in a file (`SpillRun`), written in one sequential pass,
/// and the runs are merged into the B-trees only when they hold `ViewStore.spillBudget` bytes, and at the end of the
/// fold, or, for a generation `replay` publishes, into the copy it serves from (`ViewStore.mergesRunsWhenPublished`).
///
/// Why: a fold's keys are scattered (ids and hashes), and at a million messages each write-out of 8 MiB touched most
/// leaves of the big tables, so the B-trees were copied again at every write-out (~300 of them, each a window of the
/// history closing). Merging a dozen runs at once copies each leaf once for all of them.
///
/// Reads see the runs: a lookup finds the newest run holding a key through an in-memory map from the key's hash to
/// that run (`latest`; a run that does not hold the key after all, a hash shared by two keys, sends it through every
/// run), and a scan merges the runs' sections with the held writes and the B-tree (`ChangeCursor`). Runs are written
/// by the writing thread between batches and only read while a batch folds, from either core.
///
/// Bounds: at most `ViewStore.spillBudget` bytes of runs on disk (plus the write-out that passes it); in memory, per
/// key spilled an 8-byte slot of `latest`, at most two thirds full (12-24 bytes a key), and per ~4 KiB block of a run its
/// first key.
///
/// Its stored properties skip Swift's run-time exclusivity checks (`@exclusivity(unchecked)`, docs/architecture.md
/// "Exclusivity checks"): written between batches, only read while one folds.
final class SpilledRuns: @unchecked Sendable {
    private let folder: String
    @exclusivity(unchecked) private var runs: [SpillRun] = []
    @exclusivity(unchecked) private var latest = SpillIndex()
    @exclusivity(unchecked) private var tableNumbers: [String: Int] = [:]
    private var tableNames: [String] = []
    private var nextRun = 0
    /// The run being written (`begin` to `finish`).
    @exclusivity(unchecked) private var open: SpillRun?

    /// The most runs held before they are merged, whatever their size (a run's number must fit in `latest`).
    static let maxRuns = 255

    /// The bits of a key's hash `latest` keeps (all; tests keep none, so that every key shares one hash).
    private let hashMask: Int

    /// Runs kept in `folder` (created 0700 if missing, emptied of old runs).
    init(folder: String, hashMask: Int = ~0) throws {
        self.folder = folder
        self.hashMask = hashMask
        try StoreDirectory.makePrivateDirectory(folder)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".run") {
            unlink(folder + "/" + name)
        }
    }

    deinit {
        open?.remove()
        for r in runs { r.remove() }
    }

    /// The bytes of the runs held.
    var bytes: Int { runs.reduce(0) { $0 + $1.bytes } }
    /// Whether no run is held.
    var isEmpty: Bool { runs.isEmpty && open == nil }
    /// The number of runs held.
    var count: Int { runs.count }

    private func number(_ table: String) -> Int {
        if let n = tableNumbers[table] { return n }
        let n = tableNames.count
        tableNames.append(table)
        tableNumbers[table] = n
        return n
    }

    /// The most keys' hashes `add` holds before putting them into the index.
    static let indexChunk = 65_536

    private func hash(_ table: Int, _ key: UnsafeRawBufferPointer) -> UInt64 {
        var h = Hasher()
        h.combine(table)
        h.combine(bytes: key)
        return UInt64(bitPattern: Int64(h.finalize() & hashMask))
    }

    /// Starts a run.
    func begin() throws {
        precondition(open == nil, "a run begun twice")
        open = try SpillRun(path: folder + "/\(nextRun).run")
        nextRun += 1
    }

    /// Writes `changes` (table `table`'s, in key order, each key once) into the run begun.
    func add(_ table: String, _ changes: borrowing EncodedChanges) throws {
        guard let run = open else { preconditionFailure("changes spilled outside a run") }
        let t = number(table)
        let index = runs.count
        try run.begin(table: t)
        // The keys' hashes go into the index a chunk at a time, grouped (`SpillIndex.set(_:run:)`): at most
        // `indexChunk` of them held (512 KiB).
        var hashes: [UInt64] = []
        hashes.reserveCapacity(min(changes.count, SpilledRuns.indexChunk))
        try changes.forEach(in: 0..<changes.count) { key, value in
            try run.append(key: key, value: value)
            hashes.append(hash(t, key))
            if hashes.count == SpilledRuns.indexChunk {
                latest.set(hashes, run: index)
                hashes.removeAll(keepingCapacity: true)
            }
        }
        latest.set(hashes, run: index)
        try run.end()
    }

    /// Ends the run begun: it is read from now on.
    func finish() throws {
        guard let run = open else { return }
        open = nil
        try run.seal()
        if run.sections.isEmpty { run.remove() } else { runs.append(run) }
    }

    /// The change of `key` in `table` the runs hold (the newest), or `.notHere`.
    func lookup(_ table: String, _ key: UnsafeRawBufferPointer) throws -> WriteBehind.Lookup {
        guard let t = tableNumbers[table], let newest = latest.run(for: hash(t, key)) else { return .notHere }
        if let found = try runs[newest].lookup(table: t, key) { return SpilledRuns.lookup(found) }
        // Another key with the same hash: the newest run holding this one, if any.
        for r in runs.reversed() {
            if let found = try r.lookup(table: t, key) { return SpilledRuns.lookup(found) }
        }
        return .notHere
    }

    private static func lookup(_ found: SpillRun.Found) -> WriteBehind.Lookup {
        switch found {
        case .value(let v): .value(v)
        case .deleted: .deleted
        }
    }

    /// Whether some run holds changes of `table`.
    func holds(_ table: String) -> Bool {
        guard let t = tableNumbers[table] else { return false }
        return runs.contains { $0.sections[t] != nil }
    }

    /// The runs' changes of `table` from `start` on, merged (the newest run's change of a key wins), in key order.
    func cursor(_ table: String, from start: [UInt8]) throws -> MergedChangeCursor {
        guard let t = tableNumbers[table] else { return MergedChangeCursor(newestFirst: []) }
        let layers: [any ChangeCursor] = try runs.reversed().compactMap { r in
            try r.sections[t].map { SpillCursor(try SpillSectionReader(run: r, section: $0, from: start)) }
        }
        return MergedChangeCursor(newestFirst: layers)
    }

    /// The runs' changes of `table` merged in key order (the newest run's change of a key wins), read one at a time;
    /// nil when no run holds any. Reads each run's section a few blocks at a time.
    func merged(_ table: String) throws -> MergedRuns? {
        guard let t = tableNumbers[table] else { return nil }
        let readers = try runs.reversed().compactMap { r in try r.sections[t].map { try SpillSectionReader(run: r, section: $0) } }
        return readers.isEmpty ? nil : MergedRuns(newestFirst: readers)
    }

    /// Calls `body` with the runs' changes of `table` in key order, merged (the newest run's change of a key wins;
    /// a nil value: deleted), each borrowed for the call.
    func forEachMerged(_ table: String, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Void) throws {
        guard let merged = try merged(table) else { return }
        while let key = merged.key {
            try body(key, merged.value)
            try merged.advance()
        }
    }

    /// Byte order, as LMDB orders keys (a key before the longer keys it starts).
    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let n = min(a.count, b.count)
        if n > 0 {
            let c = memcmp(a.baseAddress!, b.baseAddress!, n)
            if c != 0 { return c < 0 }
        }
        return a.count < b.count
    }

    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// The bytes the runs hold of `table`'s changes.
    func bytes(of table: String) -> Int {
        guard let t = tableNumbers[table] else { return 0 }
        return runs.reduce(0) { sum, run in sum + (run.sections[t].map { $0.end - $0.start } ?? 0) }
    }

    /// The tables the runs hold changes of.
    var tables: [String] {
        tableNames.indices.filter { t in runs.contains { $0.sections[t] != nil } }.map { tableNames[$0] }
    }

    /// Drops every run (after their changes were merged into the B-trees) and the map to them.
    func clear() {
        for r in runs { r.remove() }
        runs = []
        latest.removeAll()
    }
}
