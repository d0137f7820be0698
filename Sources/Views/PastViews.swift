import EventLog
import Foundation
import LMDB

/// The views of the last past point shown (`--as-of`), kept in `STORE/views/past/<signature>/` so that the next
/// look at that point (the next page of a past thread list) opens them as they are, and a look at a later point
/// folds on from them, instead of restoring a snapshot and folding its tail again each time.
///
/// A set is the views one time travel folded (its catalog's signature names the views and their schema
/// versions, as for snapshots), in a views environment restored from a snapshot or folded from zero. Its
/// `LOG` file names the sequence the set stands at and the log's chain hash there; it is written only once a
/// fold has ended, and removed before one starts. A set is used only when it opens, its views all stand at the
/// sequence `LOG` names, that sequence is at or before the point asked for and at or after the nearest snapshot,
/// and the log's chain hash there is the recorded one (a log restored from another store's backup does not
/// match): anything else is emptied and built again, so a damaged, stale or foreign set costs a rebuild, never
/// a wrong answer.
///
/// One process uses a set at a time (`Claim`, an exclusive `flock` on `<signature>.lock` beside the folder); a
/// second one asking meanwhile gets `nil` from `claim()` and folds in a scratch folder of its own, as before. Disk is bounded: one set per catalog
/// while in use, and a claim removes the sets of other catalogs no process is using, so at rest at most one
/// set is kept, at most the size of the views (a snapshot holds every view) plus its map's growth room. Off
/// when snapshots are (`MAILSTORE_SNAPSHOT_BUDGET_MB=0`).
package struct PastViews: Sendable {
    /// `STORE/views/past`.
    package let root: String
    /// The signature of the catalog the set folds.
    package let signature: String

    /// The kept set for `catalog` under the views folder `viewsRoot`.
    package init(viewsRoot: String, catalog: ViewCatalog) {
        root = viewsRoot + "/past"
        signature = ViewSnapshots.signature(of: catalog)
    }

    /// The folder of this catalog's set.
    package var folder: String { root + "/" + signature }

    static let logFile = "LOG"
    static let lockSuffix = ".lock"

    /// The right to use this catalog's set until `release()` (or until the process ends: the kernel drops
    /// the lock).
    package final class Claim: @unchecked Sendable {
        /// The set's folder (its `data.mdb` is a views environment).
        package let folder: String
        private let lock: FileLock

        init(folder: String, lock: FileLock) {
            self.folder = folder
            self.lock = lock
        }

        /// The sequence and chain hash the set was recorded at, or nil (none, or unreadable).
        package func recorded() -> (sequence: UInt64, hash: [UInt8])? {
            let file = folder + "/" + PastViews.logFile
            // A LOG file is one short line: anything longer is not one.
            guard let size = Environment.fileSize(file), size <= 128,
                  let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard parts.count == 2, let seq = UInt64(parts[0]), parts[1].utf8.count == 64 else { return nil }
            let digits = Array(parts[1].utf8)
            var hash: [UInt8] = []
            hash.reserveCapacity(32)
            for i in stride(from: 0, to: 64, by: 2) {
                guard let byte = UInt8(String(decoding: digits[i..<(i + 2)], as: UTF8.self), radix: 16) else { return nil }
                hash.append(byte)
            }
            return (seq, hash)
        }

        /// Records that the set stands at `sequence`, where the log's chain hash is `hash` (written as hex).
        package func record(sequence: UInt64, hash: [UInt8]) throws {
            let hex = hash.map { String(format: "%02x", $0) }.joined()
            try StoreDirectory.writePrivateFile(folder + "/" + PastViews.logFile, contents: "\(sequence) \(hex)\n")
        }

        /// Removes the record: what the folder holds is not to be trusted until `record` is called again.
        package func forget() {
            unlink(folder + "/" + PastViews.logFile)
        }

        /// Gives the set up for other processes (the folder stays).
        package func release() { lock.unlock() }
    }

    /// Claims this catalog's set, making its folder when missing; nil when another process is using it or
    /// the folder cannot be made (a read-only store). Removes the sets of other catalogs nobody is using (their
    /// lock files stay, a few bytes each: removing one another process has just opened would let two
    /// processes hold "the" lock of one set).
    package func claim() -> Claim? {
        guard (try? StoreDirectory.makePrivateDirectory(root)) != nil,
              let lock = FileLock.acquire(folder + PastViews.lockSuffix, exclusive: true, wait: false) else { return nil }
        guard (try? StoreDirectory.makePrivateDirectory(folder)) != nil else {
            lock.unlock()
            return nil
        }
        PastViews.removeUnused(root: root, except: signature)
        return Claim(folder: folder, lock: lock)
    }

    /// Removes every set of past views under the views folder `viewsRoot` that no process is using (a replay
    /// does, so time travel starts afresh with the views).
    package static func removeUnused(viewsRoot: String) {
        removeUnused(root: viewsRoot + "/past", except: nil)
    }

    private static func removeUnused(root: String, except: String?) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where name != except && !name.hasSuffix(lockSuffix) {
            let other = root + "/" + name
            guard let theirs = FileLock.acquire(other + lockSuffix, exclusive: true, wait: false) else { continue }
            try? FileManager.default.removeItem(atPath: other)
            theirs.unlock()
        }
    }

    /// The bytes the past views kept under the views folder `viewsRoot` take (their files), for `stats`.
    package static func bytes(viewsRoot: String) -> Int {
        let root = viewsRoot + "/past"
        var total = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where !name.hasSuffix(PastViews.lockSuffix) {
            for f in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + name)) ?? [] {
                total += Environment.fileSize(root + "/" + name + "/" + f) ?? 0
            }
        }
        return total
    }
}
