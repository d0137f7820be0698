import EventModel
import Foundation
import Glibc

/// What `mailstore stats` counts by walking the log (events by type and their bytes, blobs and their bytes), with
/// where each walk stopped, kept in a cache file of the store (`STORE/cache/log-stats.json`) so the next `stats`
/// walks only what was appended since: the log is append-only, so the counts of its first events and blobs never
/// change. At 1M messages the walks read the whole log file (4.3 GB, 9.7 s warm, 10.3 s cold); from the cache,
/// only the events and blobs since.
///
/// The file is only a cache, and files on disk are hostile: it is read with a bound (`maxBytes`), and used only
/// when it is this version's, names a sequence whose chain hash in the log is the one it recorded (the same log up
/// to there: a store restored from another backup or a log rewritten by hand does not match), counted the
/// hash-keyed blobs of formats 1 and 2 that are there now (their number, which only an older build can change), and
/// its last numbered blob is there. Anything else is counted again from the start and the file replaced. It holds
/// counts and sizes, nothing of the mail.
package struct LogTally: Codable, Equatable, Sendable {
    /// The cache file's format.
    static let version = 1
    /// The most bytes of a cache file read (a tally of ~100 event types is ~10 KB).
    static let maxBytes = 256 * 1024
    /// The largest count or size a cache file may hold (2^56: 64 PiB, 72 quadrillion events): adding a log's new
    /// events and blobs to it cannot overflow, where a planted `UInt64.max` would have stopped `stats` with a trap.
    static let maxCount: UInt64 = 1 << 56

    /// One event type's count and bytes.
    package struct TypeTally: Codable, Equatable, Sendable {
        /// The type's code (`EventType.rawValue`).
        var code: UInt16
        var count: UInt64
        var storedBytes: UInt64
        var payloadBytes: UInt64
    }

    var version = LogTally.version
    /// The events counted: 1 through `sequence`.
    var sequence: UInt64 = 0
    /// The chain hash of the event at `sequence`, hex (the empty log's: zeros).
    var chainHash = String(repeating: "0", count: 64)
    var events: UInt64 = 0
    var recordBytes: UInt64 = 0
    var payloadBytes: UInt64 = 0
    var storedPayloadBytes: UInt64 = 0
    var types: [TypeTally] = []
    /// The hash-keyed blobs (formats 1 and 2) counted: all of them, this many.
    var legacyBlobs: UInt64 = 0
    var legacyStoredBytes: UInt64 = 0
    var legacyRawBytes: UInt64 = 0
    /// The numbered blobs counted: 1 through `lastBlobNumber`.
    var lastBlobNumber: UInt64 = 0
    var numberedBlobs: UInt64 = 0
    var numberedStoredBytes: UInt64 = 0
    var numberedRawBytes: UInt64 = 0

    package init() {}

    /// The tally a cache file holds, or nil when there is none or it cannot be read as one (its checks against the
    /// log are `EventLog.stats`').
    static func load(_ path: String) -> LogTally? {
        guard let bytes = try? BoundedFile.read(path, maxBytes: maxBytes),
              let tally = try? JSONDecoder().decode(LogTally.self, from: Data(bytes)),
              tally.version == version, tally.chainHash.utf8.count == 64, tally.isPlausible else { return nil }
        return tally
    }

    /// Writes the tally to `path` (0600, its folder made 0700), atomically (`StoreDirectory.writePrivateFile`), and
    /// synced unless not `synced` (the tally kept while appending, written often: a file a crash leaves empty or old
    /// is not used, or walked on from). False when it cannot be written (a store this user may not write: the next
    /// `stats` counts again).
    @discardableResult
    func save(_ path: String, synced: Bool = true) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        guard access(folder, F_OK) == 0 || (try? StoreDirectory.makePrivateDirectory(folder)) != nil,
              let data = try? JSONEncoder().encode(self) else { return false }
        return (try? StoreDirectory.writePrivateFile(path, bytes: Array(data), synced: synced)) != nil
    }

    /// Whether every count and size is at most `maxCount` (a cache file is read from disk, and trusted no further).
    var isPlausible: Bool {
        let all = [sequence, events, recordBytes, payloadBytes, storedPayloadBytes, legacyBlobs, legacyStoredBytes, legacyRawBytes,
                   lastBlobNumber, numberedBlobs, numberedStoredBytes, numberedRawBytes]
            + types.flatMap { [$0.count, $0.storedBytes, $0.payloadBytes] }
        return all.allSatisfy { $0 <= LogTally.maxCount }
    }

    /// The counts by type as `LogStats` gives them.
    var typeStats: [LogStats.TypeStats] {
        types.map { LogStats.TypeStats(type: EventType(rawValue: $0.code), count: $0.count, storedBytes: $0.storedBytes,
                                       payloadBytes: $0.payloadBytes) }
    }

    /// The hex form of a chain hash.
    static func hex(_ hash: [UInt8]) -> String {
        Hex.lowercase(hash)
    }
}
