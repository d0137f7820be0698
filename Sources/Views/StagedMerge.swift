import LMDB

/// The heap merge behind `StagedRuns.merge`: a history table's versions and a table's staged runs, each read a few
/// versions ahead into a buffer of its own (`VersionBatch`), handed on in the history's key order.
///
/// State and heap are one value with mutating methods (the closures of a nested-function version captured them in
/// boxes, and every access went through a dynamic exclusivity check).
struct StagedMerge {
    /// One source: a staged run, or (nil) the history table itself.
    struct Source {
        var run: StagedRuns.Run?
        /// The last stored key read (meaningful once `started`).
        var after: [UInt8] = []
        var started = false
        var buffer = VersionBatch()
        var at = 0
        var done = false

        var hasHead: Bool { at < buffer.count }
    }

    private var sources: [Source]
    private var heap: [Int] = []
    private let staging: Database
    private let history: Database
    private var keyBuffer: [UInt8] = []

    /// A merge of `history` (first, so a run's version of the same key and window wins) and `runs` (in the order
    /// written), read in `staging`.
    init(runs: [StagedRuns.Run], staging: Database, history: Database) {
        sources = [Source(run: nil)] + runs.map { Source(run: $0) }
        self.staging = staging
        self.history = history
    }

    /// The bytes of versions the sources hold read ahead.
    var heldBytes: Int { sources.reduce(0) { $0 + $1.buffer.bytes.count } }

    /// True when every source is read to its end.
    var isEmpty: Bool { heap.isEmpty }

    /// Reads each source's first versions and builds the heap.
    mutating func start(_ scope: TransactionScope) throws {
        for i in sources.indices {
            try refill(i, scope)
            if !sources[i].done {
                heap.append(i)
                siftUp(heap.count - 1)
            }
        }
    }

    /// Moves the next version in order into `out`, replacing `out`'s last entry when it is the same key and window;
    /// false when none is left.
    mutating func pop(into out: inout VersionBatch, _ scope: TransactionScope) throws -> Bool {
        guard let top = heap.first else { return false }
        let at = sources[top].at
        if !out.isEmpty, out.sameVersion(out.count - 1, as: at, of: sources[top].buffer) { out.removeLast() }
        out.append(at, of: sources[top].buffer)
        sources[top].at += 1
        if !sources[top].hasHead { try refill(top, scope) }
        if sources[top].done {
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
        }
        if !heap.isEmpty { siftDown(0) }
        return true
    }

    private func damaged(_ what: String) -> ViewError { .damaged("\(what): an entry is not one the history writes") }

    /// Refills `sources[i]` from where it stopped: up to `StagedRuns.readAhead` versions or `readAheadBytes`.
    private mutating func refill(_ i: Int, _ scope: TransactionScope) throws {
        var s = Source(run: nil)
        swap(&s, &sources[i])
        defer { swap(&s, &sources[i]) }
        // The room a big version took goes (kept, ~600 runs' buffers would each keep the biggest version they read).
        if s.buffer.byteCapacity > 2 * StagedRuns.readAheadBytes { s.buffer = VersionBatch() } else { s.buffer.removeAll() }
        s.at = 0
        // Only the first entry a scan meets can be the last one read before.
        var skipFirst = s.started
        if let run = s.run {
            let number = run.number
            let from = s.started ? s.after : withUnsafeBytes(of: number.bigEndian) { Array($0) }
            try scope.scanBorrowed(staging, from: from) { k, v in
                if skipFirst {
                    skipFirst = false
                    if s.after.withUnsafeBytes({ ViewStore.compareBytes($0, k) }) == 0 { return true }
                }
                guard k.count >= 4, UInt32(bigEndian: k.loadUnaligned(as: UInt32.self)) == number else { return false }
                s.buffer.append(key: UnsafeRawBufferPointer(rebasing: k[4...]), window: run.window, value: v)
                s.after.removeAll(keepingCapacity: true)
                s.after.append(contentsOf: k)
                return s.buffer.count < StagedRuns.readAhead && s.buffer.bytes.count < StagedRuns.readAheadBytes
            }
        } else {
            let name = history.name
            try scope.scanBorrowed(history, from: s.started ? s.after : []) { k, v in
                if skipFirst {
                    skipFirst = false
                    if s.after.withUnsafeBytes({ ViewStore.compareBytes($0, k) }) == 0 { return true }
                }
                guard let body = HistoryKey.body(of: k), let w = HistoryKey.window(of: k), let parsed = HistoryValue.parse(v) else {
                    throw damaged(name)
                }
                // Stored again without the key (a whole key travels in the version's key form when it fits).
                let marker = parsed.present ? HistoryValue.present : HistoryValue.deleted
                if let kept = parsed.key {
                    s.buffer.append(key: kept, window: w, marker: marker, value: parsed.value)
                } else {
                    guard HistoryKey.decode(body: body, into: &keyBuffer) else { throw damaged(name) }
                    keyBuffer.withUnsafeBytes { s.buffer.append(key: $0, window: w, marker: marker, value: parsed.value) }
                }
                s.after.removeAll(keepingCapacity: true)
                s.after.append(contentsOf: k)
                return s.buffer.count < StagedRuns.readAhead && s.buffer.bytes.count < StagedRuns.readAheadBytes
            }
        }
        s.started = true
        s.done = s.buffer.isEmpty
    }

    /// Whether source `a`'s head comes before `b`'s: by key, then window, then the order written (the history table
    /// first).
    private func before(_ a: Int, _ b: Int) -> Bool {
        let x = sources[a].buffer.entries[sources[a].at], y = sources[b].buffer.entries[sources[b].at]
        let c = VersionBatch.compareKeys(x, in: sources[a].buffer, y, in: sources[b].buffer)
        if c != 0 { return c < 0 }
        if x.window != y.window { return x.window < y.window }
        return a < b
    }

    private mutating func siftUp(_ i: Int) {
        var c = i
        while c > 0 {
            let p = (c - 1) / 2
            guard before(heap[c], heap[p]) else { return }
            heap.swapAt(c, p)
            c = p
        }
    }

    /// Moves `heap[i]` down to its place, bottom-up: the hole goes down to a leaf along the smaller children (one
    /// comparison a level), then the source climbs back to where it belongs (a comparison a level it climbs). The
    /// source sifted is the one just popped, whose next version lies among the others' anywhere, so most often near
    /// the bottom, where a sift comparing it with both children at every level takes two comparisons a level: the
    /// comparisons of a 1M replay's `publish` (~600 runs of a big table merged) were 37% of its time, the sift 44%.
    /// The order is a strict total one (`before`), so the merge hands on the same sequence whatever the heap's shape.
    private mutating func siftDown(_ i: Int) {
        let n = heap.count
        let moving = heap[i]
        var hole = i
        while true {
            let l = 2 * hole + 1
            guard l < n else { break }
            let r = l + 1
            let child = r < n && before(heap[r], heap[l]) ? r : l
            heap[hole] = heap[child]
            hole = child
        }
        while hole > i {
            let parent = (hole - 1) / 2
            guard before(moving, heap[parent]) else { break }
            heap[hole] = heap[parent]
            hole = parent
        }
        heap[hole] = moving
    }
}
