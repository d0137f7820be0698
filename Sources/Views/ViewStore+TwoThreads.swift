import Foundation

extension ViewStore {
    /// Jobs shared by two threads: each takes the next left (`next`) until none is left or one of them failed.
    private final class JobQueue<Job>: @unchecked Sendable {
        private let lock = NSLock()
        private var jobs: [Job]
        private var failed = false

        init(_ jobs: [Job]) { self.jobs = jobs.reversed() }

        func next() -> Job? { lock.withLock { failed ? nil : jobs.popLast() } }
        func fail() { lock.withLock { failed = true } }
    }

    /// Runs `body` for each of `jobs`, in that order of taking, on this thread and one more (`twoThreads`, and more than
    /// one job; else on this one alone): each thread takes the next job left when it is done with one. The first error
    /// stops both from taking more; it is thrown once the other thread has ended its job. Callers keep the jobs
    /// independent (different tables), and write transactions of one environment take turns (LMDB's one writer).
    static func onTwoThreads<Job>(_ jobs: [Job], twoThreads: Bool, _ body: @escaping @Sendable (Job) throws -> Void) throws {
        let queue = JobQueue(jobs)
        let drain: @Sendable () throws -> Void = {
            while let job = queue.next() {
                do {
                    try body(job)
                } catch {
                    queue.fail()
                    throw error
                }
            }
        }
        let helper = twoThreads && jobs.count > 1 ? BackgroundWork(drain) : nil
        let mine = Result { try drain() }
        if case .failure(let e) = helper?.wait() {
            _ = try mine.get()
            throw e
        }
        try mine.get()
    }
}
