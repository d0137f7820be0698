import Foundation

/// Chunks of work made on a thread of their own, one ahead of the thread taking them: an import's next chunk of
/// a Maildir (listed, its files looked at, its messages looked up in the log: ~8% of the appending thread's time
/// by `perf`, on its path from one append to the next; the 100K import gained ~2%, 5.02-5.12 s against
/// 5.06-5.32 s, as parsing keeps both cores busy either way), and the search index's next batch of documents
/// (read, decoded and parsed while SQLite writes the one before).
///
/// At most `depth` chunks wait, besides the one being made and the one being used. The thread ends when `make`
/// returns, when it throws (the error is thrown by `next()` once the chunks made before it are taken) or when
/// `cancel()` is called; `cancel()` returns once it has ended.
package final class ChunkFeed<Chunk>: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Chunk] = []
    private var finished = false
    private var failure: Error?
    private var cancelled = false
    private let ended = DispatchSemaphore(value: 0)
    private var joined = false
    private let depth: Int
    /// The work, taken by the thread (and let go of before it says it ended: `run`).
    private var work: ((_ emit: (Chunk) throws -> Void) throws -> Void)?

    /// The feed was cancelled while its thread was making a chunk.
    struct Cancelled: Error {}

    /// Starts `make` on a thread with a stack of `stackSize` bytes (nil: the system's), which hands each chunk to
    /// `emit` (which waits while `depth` chunks are waiting, and throws once the feed is cancelled).
    package init(depth: Int = 1, stackSize: Int? = nil, _ make: @escaping @Sendable (_ emit: (Chunk) throws -> Void) throws -> Void) {
        self.depth = max(1, depth)
        work = make
        let thread = Thread { [self] in
            run()
            ended.signal()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Runs the work on the feed's thread. What it holds (a log whose blobs it checks, say) is let go of when this
    /// returns, before the thread says it ended: the block a `Thread` runs is released only after the thread is gone,
    /// which had kept a log verified a moment before open, so that opening it again another way was refused
    /// ("already open in this process in another way").
    private func run() {
        condition.lock()
        let make = work
        work = nil
        condition.unlock()
        guard let make else { return }
        do {
            try make { try self.put($0) }
            end(nil)
        } catch {
            end(error)
        }
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
    package func next() throws -> Chunk? {
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
    package func cancel() {
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
