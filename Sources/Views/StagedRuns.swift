import LMDB
import Projections

/// The history's versions of a generation being built, staged as runs (`ViewHistory.stagingTable`): each write-out of
/// a view's held changes (`ViewStore.writeOut`: one window's, in key order) appends them, beside its table's puts, as
/// a run under a number of its own (`MDB_APPEND`: keys rising, pages filled), and when the generation is published
/// the runs of each table are merged, with what its history table already holds, into that table's history in the
/// history's key order (`merge`). A version then costs an append instead of an insert at a random place of a history
/// B-tree that grows with every window, and the fold's lookups read the tables as they always did.
///
/// A staged entry: run number (4 bytes, big-endian) ‖ the view key -> `HistoryValue` without a cut key (the key is
/// whole here). A key too long for that form (over 507 bytes: no key a projector builds comes near) is written as a
/// version into the history table at once. The runs' tables and windows are kept in memory: a generation whose build
/// does not end is removed, its staged runs with it. Used by the folding thread only.
struct StagedRuns {
    /// One run: its number, the table whose changes it holds, and their window.
    struct Run {
        var number: UInt32
        var table: String
        var window: UInt32
    }

    /// The runs so far, in the order written.
    private(set) var runs: [Run] = []

    /// Starts a run of `table`'s changes in `window`.
    mutating func start(table: String, window: UInt32) -> Run {
        let run = Run(number: UInt32(runs.count), table: table, window: window)
        runs.append(run)
        return run
    }

    /// The staged key of `key` in `run`, into `out`; false when it does not fit LMDB's key limit.
    static func key(_ key: UnsafeRawBufferPointer, run: UInt32, into out: inout [UInt8]) -> Bool {
        guard key.count + 4 <= HistoryKey.maxKeyBytes else { return false }
        out.removeAll(keepingCapacity: true)
        withUnsafeBytes(of: run.bigEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: key)
        return true
    }

    /// One version being merged: the view key, its window and stored value (a `HistoryValue`), copied.
    struct Version {
        var key: [UInt8]
        var window: UInt32
        var value: [UInt8]
    }

    /// A run (or the history table itself) as the merge reads it: a few versions at a time.
    private struct Source {
        /// Where it is read: the staging table under a run's number, or (nil) the history table.
        var run: Run?
        /// The last stored key read, or nil before the first.
        var after: [UInt8]?
        var buffer: [Version] = []
        var at = 0
        var done = false

        var head: Version? { at < buffer.count ? buffer[at] : nil }
    }

    /// Versions read from a source at a time: ~600 runs of a big table at a million messages keep ~8 MB in hand.
    static let readAhead = 32

    /// Merges the runs of `table` (read in `staging`) and the versions its history table `history` already holds into
    /// `body`, in the history's key order (each key's versions oldest window first), each (key, window) once: where
    /// several say it, the last run written. `read` runs its argument in a read transaction of the build, called for
    /// each stretch of at most `chunk` versions handed to `body` after it (so no read transaction is long, and the
    /// versions handed on are copies).
    func merge(table: String, staging: Database, history: Database, chunk: Int,
               read: (_ work: (TransactionScope) throws -> Void) throws -> Void,
               _ body: ([Version]) throws -> Void) throws {
        var sources = [Source(run: nil)] + runs.filter { $0.table == table }.map { Source(run: $0) }
        func damaged(_ what: String) -> ViewError { .damaged("\(what): an entry is not one the history writes") }
        /// Refills `sources[i]` from where it stopped.
        func refill(_ i: Int, _ scope: TransactionScope) throws {
            var s = sources[i]
            s.buffer.removeAll(keepingCapacity: true)
            s.at = 0
            var keyBuffer: [UInt8] = []
            if let run = s.run {
                let prefix = withUnsafeBytes(of: run.number.bigEndian) { Array($0) }
                try scope.scanBorrowed(staging, from: s.after ?? prefix) { k, v in
                    if let a = s.after, a.elementsEqual(k) { return true }
                    guard k.starts(with: prefix) else { return false }
                    s.buffer.append(Version(key: Array(k.dropFirst(4)), window: run.window, value: Array(v)))
                    s.after = Array(k)
                    return s.buffer.count < StagedRuns.readAhead
                }
            } else {
                try scope.scanBorrowed(history, from: s.after ?? []) { k, v in
                    if let a = s.after, a.elementsEqual(k) { return true }
                    guard let body = HistoryKey.body(of: k), let w = HistoryKey.window(of: k), let parsed = HistoryValue.parse(v) else {
                        throw damaged(history.name)
                    }
                    let key: [UInt8]
                    if let kept = parsed.key {
                        key = Array(kept)
                    } else {
                        guard HistoryKey.decode(body: body, into: &keyBuffer) else { throw damaged(history.name) }
                        key = keyBuffer
                    }
                    // Stored again without the key (a whole key travels in the version's key form when it fits).
                    var value: [UInt8] = [parsed.present ? HistoryValue.present : HistoryValue.deleted]
                    value.append(contentsOf: parsed.value)
                    s.buffer.append(Version(key: key, window: w, value: value))
                    s.after = Array(k)
                    return s.buffer.count < StagedRuns.readAhead
                }
            }
            s.done = s.buffer.isEmpty
            sources[i] = s
        }
        /// Whether source `a`'s head comes before `b`'s: by key, then window, then the order written (the history
        /// table first).
        func before(_ a: Int, _ b: Int) -> Bool {
            let x = sources[a].head!, y = sources[b].head!
            let c = x.key.withUnsafeBytes { xk in y.key.withUnsafeBytes { ViewStore.compareBytes(xk, $0) } }
            if c != 0 { return c < 0 }
            if x.window != y.window { return x.window < y.window }
            return a < b
        }
        // A binary heap of the sources with a head.
        var heap: [Int] = []
        func siftUp(_ i: Int) {
            var c = i
            while c > 0 {
                let p = (c - 1) / 2
                guard before(heap[c], heap[p]) else { return }
                heap.swapAt(c, p)
                c = p
            }
        }
        func siftDown(_ i: Int) {
            var p = i
            while true {
                let l = 2 * p + 1, r = l + 1
                var m = p
                if l < heap.count, before(heap[l], heap[m]) { m = l }
                if r < heap.count, before(heap[r], heap[m]) { m = r }
                if m == p { return }
                heap.swapAt(p, m)
                p = m
            }
        }
        var pending: Version?
        var out: [Version] = []
        var started = false
        while true {
            try read { scope in
                if !started {
                    started = true
                    for i in sources.indices {
                        try refill(i, scope)
                        if !sources[i].done {
                            heap.append(i)
                            siftUp(heap.count - 1)
                        }
                    }
                }
                while out.count < chunk, let top = heap.first {
                    let v = sources[top].head!
                    sources[top].at += 1
                    if sources[top].head == nil { try refill(top, scope) }
                    if sources[top].done {
                        heap.swapAt(0, heap.count - 1)
                        heap.removeLast()
                    }
                    if !heap.isEmpty { siftDown(0) }
                    if let p = pending, p.window == v.window, p.key == v.key {
                        pending = v
                    } else {
                        if let p = pending { out.append(p) }
                        pending = v
                    }
                }
            }
            if heap.isEmpty, let p = pending {
                out.append(p)
                pending = nil
            }
            if out.isEmpty { return }
            try body(out)
            out.removeAll(keepingCapacity: true)
        }
    }
}
