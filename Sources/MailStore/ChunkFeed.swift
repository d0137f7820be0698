import Foundation

/// An import's chunks, made on a thread of their own one ahead of the appending thread: listing and looking at
/// the next chunk's files (`fstatat`) and looking up which of its messages the log already has were ~8% of the
/// appending thread's time (`perf`), on its path from one append to the next. The 100K import gained ~2% (5.02-5.12
/// s against 5.06-5.32 s, interleaved): the two cores are then busy with parsing either way.
///
/// At most one chunk waits (`depth`), so the feed holds at most one chunk's listing beyond the importer's. The
/// thread ends when the source is done, when `make` throws (the error is thrown by `next()` once the chunks
/// made before it are taken) or when `cancel()` is called; `cancel()` returns once it has ended.
final class ChunkFeed<Chunk>: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Chunk] = []
    private var finished = false
    private var failure: Error?
    private var cancelled = false
    private let ended = DispatchSemaphore(value: 0)
    private var joined = false
    private let depth = 1

    /// The feed was cancelled while its thread was making a chunk.
    struct Cancelled: Error {}

    /// Starts `make`, which hands each chunk to `emit` (which waits while a chunk is waiting, and throws once
    /// the feed is cancelled).
    init(_ make: @escaping @Sendable (_ emit: (Chunk) throws -> Void) throws -> Void) {
        let thread = Thread { [self] in
            defer { ended.signal() }
            do {
                try make { try self.put($0) }
                end(nil)
            } catch {
                end(error)
            }
        }
        thread.start()
    }

    private func put(_ chunk: Chunk) throws {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= depth && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        ready.append(chunk)
        condition.broadcast()
    }

    private func end(_ error: Error?) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        if !(error is Cancelled) { failure = error }
        condition.broadcast()
    }

    /// The next chunk, waiting for it; nil once the source is done. Throws what `make` threw, after the chunks
    /// made before it.
    func next() throws -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        if !ready.isEmpty {
            let chunk = ready.removeFirst()
            condition.broadcast()
            return chunk
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops making chunks and waits for the thread to end. Call once, from the taking thread.
    func cancel() {
        condition.lock()
        cancelled = true
        ready.removeAll()
        condition.broadcast()
        condition.unlock()
        if !joined {
            joined = true
            ended.wait()
        }
    }
}
