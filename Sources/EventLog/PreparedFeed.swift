import EventModel
import Foundation

/// A big batch encoded on a thread of its own, a chunk of consecutive events at a time, while the writing
/// thread hashes and puts the chunks already encoded. Encoding is pure (no LMDB, no I/O): the write
/// transaction stays on the writer's thread.
///
/// Every chunk is kept until `finish()`, so a transaction run again after `MDB_MAP_FULL` reads them again
/// (the same memory as encoding the whole batch first). An encoding error is thrown by `chunk(_:)` when
/// the writer reaches the chunk that failed.
final class PreparedFeed: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [PreparedBatch] = []
    private var failure: Error?
    private var cancelled = false
    private let chunkCount: Int
    private let done = DispatchSemaphore(value: 0)
    private let scratch: WriterScratch

    /// Starts encoding `batch` (every event recorded at the same time) with `scratch`, which the feed's thread
    /// uses until `finish()`.
    init(batch: [NewEvent], scratch: WriterScratch, chunkSize: Int) {
        chunkCount = (batch.count + chunkSize - 1) / chunkSize
        self.scratch = scratch
        let now = Timestamp.now
        let thread = Thread { [self] in
            defer { done.signal() }
            for k in 0..<chunkCount {
                let range = (k * chunkSize)..<min(batch.count, (k + 1) * chunkSize)
                let result = Result { try self.scratch.prepare(batch, range: range, now: now) }
                condition.lock()
                defer { condition.broadcast(); condition.unlock() }
                if cancelled { return }
                switch result {
                case .success(let c): chunks.append(c)
                case .failure(let e):
                    failure = e
                    return
                }
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The `k`-th chunk, waiting for it to be encoded; nil past the last. Throws the encoding error of the
    /// chunk that failed.
    func chunk(_ k: Int) throws -> PreparedBatch? {
        guard k < chunkCount else { return nil }
        condition.lock()
        defer { condition.unlock() }
        while k >= chunks.count {
            if let failure { throw failure }
            condition.wait()
        }
        return chunks[k]
    }

    /// Stops the encoding (if still running) and waits for its thread to end: afterwards the scratch is
    /// the caller's again.
    func finish() {
        condition.lock()
        cancelled = true
        condition.unlock()
        done.wait()
    }
}
