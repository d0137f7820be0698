import EventLog
import EventModel
import Foundation
import LMDB

/// The log, read through the store.
extension MailStore {
    /// Calls `body` with each event from sequence `from` up to the head as it was when the scan began, in
    /// order, that `filter` lets through, until `body` returns false.
    public func scan(from: UInt64 = 1, filter: ScanFilter = .all, _ body: (StoredEvent) throws -> Bool) throws {
        try log.scan(from: from, filter: filter, body)
    }

    /// Where the newest `count` events of `from...through` that `filter` lets through begin (the oldest of them's
    /// sequence, or `from` when fewer pass): a scan from there through `through` shows exactly them. Walks back in
    /// bounded read transactions keeping only a count (`EventLog.startOfLast`).
    public func startOfLast(_ count: Int, from: UInt64 = 1, through: UInt64, filter: ScanFilter = .all) throws -> UInt64 {
        try log.startOfLast(count, from: from, through: through, filter: filter)
    }

    /// The first sequence recorded at or after `time` (the head's + 1 when none is), by binary search: recorded
    /// times never go back along the log.
    public func firstSequence(recordedAtOrAfter time: Timestamp) throws -> UInt64 {
        try log.firstSequence(recordedAtOrAfter: time)
    }

    /// The log's size and counts per event type: what a `stats` before counted read from the store's cache
    /// (`StoreDirectory.statsCacheFile`), only the events and blobs appended since walked.
    public func stats() throws -> LogStats {
        try log.stats(cache: directory.statsCacheFile)
    }

    /// Nil when folds and imports on this machine map the log's and the views' pages one per fault (the kernel's
    /// fault-around off, which keeps their resident size near its budget); else why the kernel refused.
    public static var faultAroundRefusal: String? { Environment.faultAroundRefusal }

    /// Checks every record, the hash chain and the indexes (and every blob's hash when `checkBlobs`).
    public func verifyLog(checkBlobs: Bool = true, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> VerifyReport {
        try log.verify(checkBlobs: checkBlobs, progress: progress)
    }

    /// The last sequence and its chain hash.
    public func head() throws -> (sequence: UInt64, hash: [UInt8]) {
        try log.head()
    }

    /// The time the log's last event was recorded at (nil for an empty log). Appends never record a time before it:
    /// one ahead of the machine's clock (a command run while the clock stood ahead) is the time of every event
    /// appended until the clock passes it.
    public func lastRecordedTime() throws -> Date? {
        try log.lastRecordedAt()?.date
    }

    /// A blob's bytes (a raw message or an attachment), or nil when the blob store does not have it.
    public func blob(_ hash: BlobHash) throws -> [UInt8]? {
        try log.blob(hash)
    }

    /// The bytes of a file given from outside (the CLI's `--ids-from`, `--body-file`), read with a bound
    /// (`BoundedFile`): a regular file, or when `streams` a pipe or a device too, of at most `maxBytes`.
    package static func readInput(_ path: String, maxBytes: Int, streams: Bool = false) throws(BoundedFile.Failure) -> [UInt8] {
        try BoundedFile.read(path, maxBytes: maxBytes, streams: streams)
    }

    /// At most `maxBytes` of standard input, read to its end; more is refused.
    package static func readStandardInput(maxBytes: Int) throws(BoundedFile.Failure) -> [UInt8] {
        try BoundedFile.read(descriptor: 0, maxBytes: maxBytes)
    }
}
