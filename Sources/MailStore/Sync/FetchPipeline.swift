import Foundation

/// A bounded hand-off between the thread that reads fetched batches from the server and the thread that
/// parses and commits them, so the network and the disk work at the same time. The producer stops when
/// cancelled; `finish()` waits until it has.
final class FetchPipeline<Batch: Sendable>: @unchecked Sendable {
    enum Item {
        case batch(Batch)
        case failed(Error)
        case end
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var cancelled = false
    private var done = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Starts `produce` on its own thread; it calls `put` for each batch and returns at the end.
    func start(_ produce: @escaping @Sendable (FetchPipeline) throws -> Void) {
        let t = Thread { [self] in
            do {
                try produce(self)
                push(.end)
            } catch {
                push(.failed(error))
            }
            condition.withLock {
                done = true
                condition.broadcast()
            }
        }
        t.stackSize = 1 << 20
        t.start()
    }

    /// Hands a batch over, waiting while the queue is full. Returns false once cancelled (stop producing).
    func put(_ batch: Batch) -> Bool {
        condition.withLock {
            while items.count >= capacity && !cancelled { condition.wait() }
            guard !cancelled else { return false }
            items.append(.batch(batch))
            condition.broadcast()
            return true
        }
    }

    private func push(_ item: Item) {
        condition.withLock {
            items.append(item)
            condition.broadcast()
        }
    }

    /// The next item, waiting for it.
    func take() -> Item {
        condition.withLock {
            while items.isEmpty { condition.wait() }
            let item = items.removeFirst()
            condition.broadcast()
            return item
        }
    }

    /// Tells the producer to stop and waits until its thread is done (its current command finished).
    func finish() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
            while !done { condition.wait() }
        }
    }
}
