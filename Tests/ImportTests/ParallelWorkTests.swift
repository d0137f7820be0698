import Foundation
import Synchronization
@testable import MailStore
import XCTest

/// `ParallelWork.forEach`: the import's and the sync's parse loop.
final class ParallelWorkTests: XCTestCase {
    /// Every index once, worker numbers in range, and never one worker number on two threads at once (each
    /// worker number stands for a parser context that is not thread-safe).
    func testEveryIndexRunsOnceAndAWorkerNumberIsNeverSharedAtOnce() {
        for (count, workers) in [(0, 2), (1, 4), (5, 1), (1_000, 2), (1_000, 3), (3, 8)] {
            // Locked by `NSLock` (pthread), which ThreadSanitizer sees, not `Mutex` (a futex in the uninstrumented
            // standard library: its accesses were reported as races).
            let seen = Locked([Int](repeating: 0, count: count))
            let busy = Locked([Bool](repeating: false, count: max(workers, 1)))
            let clashes = Atomic<Int>(0), outOfRange = Atomic<Int>(0)
            ParallelWork.forEach(count: count, workers: workers) { w, i in
                guard (0..<workers).contains(w), (0..<count).contains(i) else {
                    outOfRange.add(1, ordering: .relaxed)
                    return
                }
                busy.withLock { b in
                    if b[w] { clashes.add(1, ordering: .relaxed) }
                    b[w] = true
                }
                seen.withLock { $0[i] += 1 }
                if i % 7 == 0 { usleep(50) }  // an uneven load, so that threads interleave
                busy.withLock { $0[w] = false }
            }
            XCTAssertEqual(outOfRange.load(ordering: .relaxed), 0, "\(count) on \(workers)")
            XCTAssertEqual(clashes.load(ordering: .relaxed), 0, "\(count) on \(workers)")
            XCTAssertEqual(seen.withLock { $0 }, Array(repeating: 1, count: count), "\(count) on \(workers)")
        }
    }
}

/// A value behind an `NSLock`.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
