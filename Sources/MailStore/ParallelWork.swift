import Dispatch
import Synchronization

/// Runs a loop's iterations on worker threads that each claim the next index as they finish one, rather than a
/// fixed share (every `n`th) each: a worker slowed by another thread on its core (the appending thread, which
/// runs beside the parse of the next chunk) then takes fewer messages instead of holding the chunk back while
/// the others wait.
enum ParallelWork {
    /// Calls `body(worker, index)` once for each index in `0..<count`, on `workers` threads at most (worker
    /// numbers `0..<workers`, each used by one thread at a time), and returns when all are done.
    static func forEach(count: Int, workers: Int, _ body: @Sendable (_ worker: Int, _ index: Int) -> Void) {
        let n = min(max(1, workers), count)
        guard n > 1 else {
            for i in 0..<count { body(0, i) }
            return
        }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: n) { w in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                body(w, i)
            }
        }
    }
}
