import EventLog
import EventModel
import Foundation

/// The batches of a big catch-up, read, decoded and parsed on a thread of its own while the caller writes the
/// ones before (SQLite writes on the caller's thread; the log is read in the feed thread's own read
/// transactions). At most `capacity` batch waits, besides the one being read and the one being written: memory
/// stays at three batches of documents (two did not build faster).
final class SearchBatchFeed: @unchecked Sendable {
    /// Batches prepared ahead of the writer, at most.
    static let capacity = 1

    private let condition = NSCondition()
    private var ready: [PreparedSearchBatch] = []
    private var failure: Error?
    private var ended = false
    private var cancelled = false
    private let done = DispatchSemaphore(value: 0)
    private let log: EventLog
    private let from: UInt64
    private let head: UInt64

    /// Starts reading the folded events from `from` through `head`.
    init(log: EventLog, from: UInt64, through head: UInt64) {
        self.log = log
        self.from = from
        self.head = head
        let thread = Thread { [self] in
            defer { done.signal() }
            do {
                try produce()
                finishProducing(nil)
            } catch {
                finishProducing(error)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func produce() throws {
        let reader = try SearchBatchReader(log: log)
        var batch: [StoredEvent] = []
        batch.reserveCapacity(SearchIndex.batchSize)
        var stopped = false
        func hand(through last: UInt64) throws {
            let prepared = try reader.prepare(batch, through: last)
            batch.removeAll(keepingCapacity: true)
            condition.lock()
            defer { condition.unlock() }
            while ready.count >= SearchBatchFeed.capacity && !cancelled { condition.wait() }
            if cancelled {
                stopped = true
                return
            }
            ready.append(prepared)
            condition.broadcast()
        }
        try log.scan(from: from, filter: ScanFilter(types: SearchIndex.foldedTypes)) { ev in
            if ev.envelope.sequence > head { return false }
            batch.append(ev)
            if batch.count >= SearchIndex.batchSize { try hand(through: ev.envelope.sequence) }
            return !stopped
        }
        if !stopped { try hand(through: head) }
    }

    private func finishProducing(_ error: Error?) {
        condition.lock()
        failure = error
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, waiting for it; nil after the last. Throws what reading or decoding failed with.
    func next() throws -> PreparedSearchBatch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !ended { condition.wait() }
        if !ready.isEmpty {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the reading (if still running) and waits for its thread to end.
    func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        done.wait()
    }
}
