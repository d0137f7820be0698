import EventModel
import Foundation

/// A big batch encoded a chunk of consecutive events at a time by two threads: a thread of its own, and the
/// writing thread whenever the chunk it needs next is not ready (it then encodes the first chunk nobody has
/// taken, rather than wait). The writing thread hashes and puts the chunks in order. Encoding is pure (no LMDB,
/// no I/O): the write transaction stays on the writer's thread.
///
/// The writing thread used to only wait, and the append ran at the encoding thread's speed: encoding a record
/// and its digest costs about what hashing and putting it does (~0.85 and ~0.8 µs per event in the log bench).
/// Helping, the 10,000-event batches' transactions took 10.3-10.8 ms instead of 12.6-13 ms. Taking the last open
/// chunk instead of the first was tried: 11.4-12.6 ms (what the writer encodes is then cold when it puts it).
///
/// Every chunk is kept until `finish()`, so a transaction run again after `MDB_MAP_FULL` reads them again
/// (the same memory as encoding the whole batch first); `finish()` gives them to the writer's spares. An
/// encoding error is thrown by `chunk(_:)` when the writer reaches the chunk that failed.
final class PreparedFeed: @unchecked Sendable {
    private enum Slot {
        case open
        case taken
        case ready(PreparedBatch)
        case failed(Error)
    }

    private let condition = NSCondition()
    private var slots: [Slot]
    /// How many chunks there are (`slots.count`, readable without the lock: the slots are written under it).
    private let chunkCount: Int
    /// The first chunk no thread has taken.
    private var nextOpen = 0
    private var cancelled = false
    private let done = DispatchSemaphore(value: 0)
    private let batch: [NewEvent]
    private let chunkSize: Int
    private let now: Timestamp
    /// The feed thread's scratch, and the writing thread's.
    private let scratch: WriterScratch
    private let helper: WriterScratch

    /// Starts encoding `batch` (every event recorded at the same time): the feed's thread with `scratch`, which
    /// it uses until `finish()`, the writing thread (in `chunk(_:)`) with `helper`.
    init(batch: [NewEvent], scratch: WriterScratch, helper: WriterScratch, chunkSize: Int, now: Timestamp) {
        chunkCount = (batch.count + chunkSize - 1) / chunkSize
        slots = Array(repeating: .open, count: chunkCount)
        self.batch = batch
        self.chunkSize = chunkSize
        self.scratch = scratch
        self.helper = helper
        self.now = now
        let thread = Thread { [self] in
            defer { done.signal() }
            condition.lock()
            defer { condition.unlock() }
            while let k = takeOpen() {
                encode(k, with: self.scratch)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Takes the first open chunk (the lock held), nil when none is left or the feed is cancelled.
    private func takeOpen() -> Int? {
        guard !cancelled, nextOpen < chunkCount else { return nil }
        let k = nextOpen
        nextOpen += 1
        slots[k] = .taken
        return k
    }

    /// Encodes chunk `k` with `scratch`, the lock released meanwhile (and held again after).
    private func encode(_ k: Int, with scratch: WriterScratch) {
        condition.unlock()
        let range = (k * chunkSize)..<min(batch.count, (k + 1) * chunkSize)
        let result = Result { try scratch.prepare(batch, range: range, now: now) }
        condition.lock()
        switch result {
        case .success(let c): slots[k] = .ready(c)
        case .failure(let e): slots[k] = .failed(e)
        }
        condition.broadcast()
    }

    /// The `k`-th chunk, encoding open chunks meanwhile if it is not ready; nil past the last. Throws the
    /// encoding error of the chunk that failed.
    func chunk(_ k: Int) throws -> PreparedBatch? {
        guard k < chunkCount else { return nil }
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch slots[k] {
            case .ready(let c): return c
            case .failed(let e): throw e
            case .open, .taken:
                if let j = takeOpen() {
                    encode(j, with: helper)
                } else {
                    condition.wait()
                }
            }
        }
    }

    /// Stops the encoding (if still running) and waits for its thread to end: afterwards both scratches are the
    /// caller's again. The chunks go to the writer's spares.
    func finish() {
        condition.lock()
        cancelled = true
        condition.unlock()
        done.wait()
        // Each chunk moved out of the slots, so its buffers are the spares' alone (a shared one would be copied).
        while let slot = slots.popLast() {
            if case .ready(let c) = consume slot { scratch.spares.give(c) }
        }
    }
}
