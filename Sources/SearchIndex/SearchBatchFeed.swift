import EventLog
import EventModel
import Foundation

/// The batches of a big catch-up, read, decoded and parsed on a thread of its own while the caller writes the
/// ones before (SQLite writes on the caller's thread; the log is read in the feed thread's own read
/// transactions). At most `capacity` batch waits, besides the one being read and the one being written: memory
/// stays at three batches of documents (two did not build faster), each at most `SearchIndex.batchSize` events and
/// about `SearchIndex.batchBytes` (`SearchBatchReader.isFull`).
final class SearchBatchFeed: @unchecked Sendable {
    /// Batches prepared ahead of the writer, at most.
    static let capacity = 1

    private let feed: ChunkFeed<PreparedSearchBatch>

    /// Starts reading the folded events from `from` through `head`, in batches cut at `batchBytes` held
    /// (`SearchBatchReader.batchBytes`).
    init(log: EventLog, from: UInt64, through head: UInt64, batchBytes: Int = SearchIndex.batchBytes) {
        // A deep stack: messages are parsed on this thread.
        feed = ChunkFeed(depth: SearchBatchFeed.capacity, stackSize: 8 << 20) { emit in
            let reader = try SearchBatchReader(log: log, batchBytes: batchBytes)
            try log.scan(from: from, filter: ScanFilter(types: SearchIndex.foldedTypes)) { ev in
                if ev.envelope.sequence > head { return false }
                try reader.add(ev)
                if reader.isFull { try emit(reader.take(through: ev.envelope.sequence)) }
                return true
            }
            try emit(reader.take(through: head))
        }
    }

    /// The next batch, waiting for it; nil after the last. Throws what reading or decoding failed with.
    func next() throws -> PreparedSearchBatch? { try feed.next() }

    /// Stops the reading (if still running) and waits for its thread to end.
    func finish() { feed.cancel() }
}
