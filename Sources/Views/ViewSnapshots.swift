import EventLog
import Foundation
import LMDB
import NativeCodecs
import Projections

/// Copies of the views at points of the log (`STORE/views/snapshots/`), so a past point (`--as-of`) is
/// folded from the nearest copy at or before it instead of from the log's start.
///
/// A snapshot is a compacted copy of the views environment, taken after a fold's batch when every view's
/// checkpoint is the same sequence, its pages' free bytes zeroed (`FreeSpaceScrubber`), compressed with zstd (a
/// standard frame) into
/// `<sequence, 20 digits>-<catalog signature>.zst`. The signature hashes every view's name and schema
/// version, so a snapshot of another schema is never used (and is pruned). A snapshot is checked when used
/// (it must open, and every view must be at its sequence with this build's schema); one that is not is
/// skipped and the fold starts from the next older one or from zero.
///
/// Disk is bounded: at most `maxCount` snapshots, and together at most `budget` bytes (by default half the
/// log file's size; `MAILSTORE_SNAPSHOT_BUDGET_MB` sets it, 0 turns snapshots off). A new one is taken when
/// the views have folded `max(minInterval, head / maxCount)` events past the newest; over either bound the
/// snapshot whose removal leaves the smallest gap between its neighbours goes (never the newest), so the
/// survivors stay spread over the log.
package struct ViewSnapshots: Sendable {
    /// One stored snapshot.
    package struct Entry: Sendable, Equatable {
        /// The sequence every view was folded through.
        package var sequence: UInt64
        /// The file.
        package var path: String
        /// Its size in bytes.
        package var bytes: Int
    }

    /// The folder holding the snapshots.
    package let folder: String
    /// The catalog's signature (views and schema versions).
    package let signature: String
    /// The most bytes all snapshots may take; 0: no snapshots.
    package let budget: Int
    /// The fewest events between two snapshots (`MAILSTORE_SNAPSHOT_INTERVAL`, default 50,000).
    package let minInterval: UInt64

    static let maxCount = 8
    static let defaultInterval: UInt64 = 50_000
    static let suffix = ".zst"
    /// The most a snapshot may expand to when restored, so a damaged or hostile file cannot fill the disk:
    /// four times the log file (views of a store are a fraction of its log: ~35% compacted on generated mail),
    /// at least 1 GiB.
    package let maxRestoredBytes: Int

    /// The snapshots of the views under `viewsRoot` for `catalog`, with the disk budget from the environment
    /// (`MAILSTORE_SNAPSHOT_BUDGET_MB`) or half of `logBytes`.
    package init(viewsRoot: String, catalog: ViewCatalog, logBytes: Int,
                 environment: [String: String] = ProcessInfo.processInfo.environment) {
        folder = viewsRoot + "/snapshots"
        signature = ViewSnapshots.signature(of: catalog)
        if let text = environment["MAILSTORE_SNAPSHOT_BUDGET_MB"], let mb = Int(text), mb >= 0 {
            budget = mb.multipliedReportingOverflow(by: 1 << 20).overflow ? Int.max : mb << 20
        } else {
            budget = logBytes / 2
        }
        maxRestoredBytes = max(1 << 30, logBytes.multipliedReportingOverflow(by: 4).overflow ? Int.max : logBytes * 4)
        minInterval = environment["MAILSTORE_SNAPSHOT_INTERVAL"].flatMap { UInt64($0) }.map { max(1, $0) } ?? ViewSnapshots.defaultInterval
    }

    /// The snapshots of the views under `viewsRoot`, with the budget from the environment or half of `log`'s file.
    package init(viewsRoot: String, catalog: ViewCatalog, log: EventLog) {
        self.init(viewsRoot: viewsRoot, catalog: catalog,
                  logBytes: Environment.fileSize(Environment.dataFile(log.environment.path)) ?? 0)
    }

    /// FNV-1a (64 bits, hex; `Key.fnv1a`) over each view's name and schema version, in catalog order.
    static func signature(of catalog: ViewCatalog) -> String {
        let text = catalog.types.map { "\($0.name.rawValue):\($0.schemaVersion);" }.joined()
        let hex = String(Array(text.utf8).withUnsafeBufferPointer { Key.fnv1a($0) }, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The snapshots present, oldest first: those of this catalog (`mine`) and any other (`others`).
    package func list() -> (mine: [Entry], others: [Entry]) {
        var mine: [Entry] = [], others: [Entry] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(ViewSnapshots.suffix) {
            let stem = name.dropLast(ViewSnapshots.suffix.count)
            let parts = stem.split(separator: "-")
            guard parts.count == 2, parts[0].count == 20, let seq = UInt64(parts[0]) else { continue }
            let path = folder + "/" + name
            let entry = Entry(sequence: seq, path: path, bytes: Environment.fileSize(path) ?? 0)
            if parts[1] == signature { mine.append(entry) } else { others.append(entry) }
        }
        return (mine.sorted { $0.sequence < $1.sequence }, others)
    }

    /// True when the views, folded through `sequence` of a log whose head is `head`, are due a snapshot.
    func due(at sequence: UInt64, head: UInt64, newest: UInt64) -> Bool {
        guard budget > 0 else { return false }
        let interval = max(minInterval, head / UInt64(ViewSnapshots.maxCount))
        return sequence >= newest + interval
    }

    /// Takes a snapshot of the views in `environment`, then prunes. Safe on a thread of its own while the
    /// views are written: the copy is one read transaction, named by the checkpoints it holds, read back from
    /// it (the fold, or another process, may have folded further since the snapshot was found due); a copy
    /// whose views stand at different sequences is dropped. Returns the new entry. The temporary copy is
    /// removed whatever happens.
    @discardableResult
    func take(environment: Environment, log: EventLog, catalog: ViewCatalog) throws -> Entry {
        try StoreDirectory.makePrivateDirectory(folder)
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let copy = folder + "/.copy-" + tag, packed = folder + "/.packed-" + tag
        defer {
            try? FileManager.default.removeItem(atPath: copy)
            try? FileManager.default.removeItem(atPath: packed)
        }
        try StoreDirectory.makePrivateDirectory(copy)
        // The copy walks every page of the views: unmapped as it goes, or the whole map becomes resident.
        try ResidentPageReleaser.during(environment) { try environment.copy(to: copy) }
        let copied = try ViewStore(path: copy, log: log, catalog: catalog, readOnly: true)
        guard let sequence = try copied.uniformCheckpoint(), sequence > 0 else {
            throw ViewError.damaged("\(copy): the copied views do not all stand at one sequence")
        }
        // The copy's pages carry stale bytes in their free middles (a third of the file at 1M messages): zeroed as
        // they are read, the snapshot takes ~40% less disk (more of them fit in the budget) and less time to compress.
        var scrubber = FreeSpaceScrubber(pageSize: environment.pageSize)
        let bytes = try ZstdFile.compress(Environment.dataFile(copy), to: packed) { scrubber?.scrub($0) }
        let digits = String(sequence)
        let final = folder + "/" + String(repeating: "0", count: 20 - digits.count) + digits + "-" + signature + ViewSnapshots.suffix
        guard rename(packed, final) == 0 else { throw StoreError.io(final, String(cString: strerror(errno))) }
        prune()
        return Entry(sequence: sequence, path: final, bytes: bytes)
    }

    /// Removes snapshots of other catalogs and the temporary files of takers that died (their process is
    /// gone), then thins this catalog's to the count and byte bounds.
    package func prune() {
        let (mine, others) = list()
        for o in others { try? FileManager.default.removeItem(atPath: o.path) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(".copy-") || name.hasPrefix(".packed-") {
            let tag = name.drop { $0 != "-" }.dropFirst()
            guard let pid = Int32(tag.prefix { $0 != "-" }), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(atPath: folder + "/" + name) }
        }
        var kept = mine
        while !kept.isEmpty, kept.count > ViewSnapshots.maxCount || kept.reduce(0, { $0 + $1.bytes }) > budget {
            // The one (never the newest, unless alone over the budget) whose neighbours are closest together.
            var victim = kept.count - 1, smallest = UInt64.max
            for i in 0..<(kept.count - 1) {
                let gap = kept[i + 1].sequence - (i == 0 ? 0 : kept[i - 1].sequence)
                if gap < smallest { smallest = gap; victim = i }
            }
            try? FileManager.default.removeItem(atPath: kept[victim].path)
            kept.remove(at: victim)
        }
    }

    /// Checks every snapshot of this catalog: it must decompress, open, and hold every view at the sequence
    /// its name says with this build's schema. Each restores in turn into a folder under `scratch` (removed
    /// after). Returns one difference per snapshot that fails (time travel skips those anyway).
    package func check(log: EventLog, catalog: ViewCatalog, scratch: String) -> [ViewStore.Difference] {
        var out: [ViewStore.Difference] = []
        for entry in list().mine {
            let folder = scratch + "/snapshot-\(entry.sequence)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let name = (entry.path as NSString).lastPathComponent
            do {
                try StoreDirectory.makePrivateDirectory(folder)
                try ZstdFile.decompress(entry.path, to: Environment.dataFile(folder), limit: maxRestoredBytes)
                let views = try ViewStore(path: folder, log: log, catalog: catalog, readOnly: true)
                if try views.uniformCheckpoint() != entry.sequence {
                    out.append(ViewStore.Difference(view: "snapshots", table: name,
                                                    detail: "holds views at other sequences or schemas than its name says: time travel skips it; delete the file"))
                }
            } catch {
                out.append(ViewStore.Difference(view: "snapshots", table: name, detail: "does not restore (\(error)): time travel skips it; delete the file"))
            }
        }
        return out
    }

    /// Restores the newest usable snapshot at or before `sequence` into the empty folder `target` (as its
    /// `data.mdb`); returns its sequence, or nil when none is usable (`target` is then left empty).
    /// `check` opens the restored file and says whether it is what it claims to be.
    func restore(atOrBefore sequence: UInt64, into target: String, check: (UInt64) -> Bool) -> UInt64? {
        for entry in list().mine.reversed() where entry.sequence <= sequence {
            let data = Environment.dataFile(target)
            do {
                try ZstdFile.decompress(entry.path, to: data, limit: maxRestoredBytes)
                if check(entry.sequence) { return entry.sequence }
            } catch {}
            for f in (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? [] {
                try? FileManager.default.removeItem(atPath: target + "/" + f)
            }
        }
        return nil
    }
}
