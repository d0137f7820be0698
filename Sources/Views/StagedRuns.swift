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

    /// Versions read from a source at a time: ~600 runs of a big table at a million messages keep ~8 MB in hand.
    static let readAhead = 32
    /// The bytes a source's read-ahead stops at (after at least one version): versions are a few hundred bytes,
    /// so 32 of them stay under it; a source whose next version is big (a long thread's record, ~1 MB at most,
    /// `ThreadBound`) holds that one alone. A key changed in many runs of one window has its versions at the heads
    /// of as many sources at once: ~1 MB each for a long thread's.
    static let readAheadBytes = 64 << 10
    /// The bytes of versions handed on in one stretch (after at least one besides the pending one): a stretch of
    /// `chunk` versions of big values (long threads' records) held ~100 MB.
    static let stretchBytes = 8 << 20

    /// Merges the runs of `table` (read in `staging`) and the versions its history table `history` already holds into
    /// `body`, in the history's key order (each key's versions oldest window first), each (key, window) once: where
    /// several say it, the last run written. `read` runs its argument in a read transaction of the build, called for
    /// each stretch of at most `chunk` versions handed to `body` after it (so no read transaction is long, and the
    /// versions handed on are copies, in one buffer).
    ///
    /// Each source's versions are read ahead into a buffer kept across its refills, and the heap compares the
    /// sources' heads where they lie (`StagedMerge`; 2026-11-29: an array per key and per value, the last key read
    /// copied for each entry and compared element by element made this merge 13% of a whole `replay`'s folding
    /// thread at 10K messages).
    func merge(table: String, staging: Database, history: Database, chunk: Int,
               read: (_ work: (TransactionScope) throws -> Void) throws -> Void,
               _ body: (VersionBatch) throws -> Void) throws {
        var merge = StagedMerge(runs: runs.filter { $0.table == table }, staging: staging, history: history)
        // `out`'s last entry is the pending one: a later source may say the same (key, window) again, and replaces it.
        var out = VersionBatch()
        var started = false
        while true {
            try read { scope in
                if !started {
                    started = true
                    try merge.start(scope)
                }
                while out.count <= chunk, out.count < 2 || out.bytes.count < StagedRuns.stretchBytes,
                      try merge.pop(into: &out, scope) {}
            }
            if out.isEmpty { return }
            if merge.isEmpty, out.count <= chunk {
                try body(out)
                return
            }
            // The pending entry waits for the next stretch (or is the last one left).
            var carry = VersionBatch()
            carry.append(out.count - 1, of: out)
            out.removeLast()
            try body(out)
            out.removeAll()
            out.append(0, of: carry)
        }
    }
}
