import Foundation
import Glibc
@testable import MailStore
import TestSupport
import XCTest

/// The delivery thread of a watch's notifier (`DeliveryWorker`), asked from several threads at once (run under
/// ThreadSanitizer by `Tools/tsan`): one pass at a time, no ask lost, asks coalesced; and the thread ends when its owner
/// finishes, within a bound even while a pass hangs. It had waited for asks for good, one idle thread for each watch
/// that ended in a process that went on.
final class DeliveryWorkerTests: XCTestCase {
    /// What the passes saw, under a lock TSan sees (`NSLock`).
    final class Passes: @unchecked Sendable {
        private let lock = NSLock()
        private var inPass = false
        private(set) var overlaps = 0
        private(set) var count = 0
        /// Asks made so far (counted before each ask).
        private(set) var asks = 0
        /// The asks counted when the latest pass started.
        private(set) var asksSeenByLastPass = 0

        func willAsk() { lock.withLock { asks += 1 } }

        func begin() {
            lock.withLock {
                if inPass { overlaps += 1 }
                inPass = true
                count += 1
                asksSeenByLastPass = asks
            }
        }

        func end() { lock.withLock { inPass = false } }

        var snapshot: (count: Int, overlaps: Int, asks: Int, seen: Int) { lock.withLock { (count, overlaps, asks, asksSeenByLastPass) } }

        /// A worker (thread named `name`) whose every pass is counted here, running `body`.
        func worker(name: String, body: @escaping @Sendable () -> Void = {}) -> DeliveryWorker {
            DeliveryWorker(name: name) { [self] in
                begin()
                body()
                end()
            }
        }
    }

    /// A thread name of this test's own (at most 15 bytes: the kernel's limit), to find the worker among the threads.
    func uniqueName() -> String { "dw-" + String(UUID().uuidString.prefix(8)) }

    /// How many of this process's threads are named `name` (`/proc/self/task/*/comm`).
    func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) == name }.count
    }

    func testAsksFromManyThreadsRunOnePassAtATimeAndNoneIsLost() {
        let passes = Passes()
        let worker = passes.worker(name: uniqueName()) { usleep(UInt32.random(in: 0...300)) }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<200 {
                passes.willAsk()
                worker.ask()
                if Bool.random() { usleep(UInt32.random(in: 0...200)) }
            }
        }
        XCTAssertTrue(worker.waitIdle(seconds: 10))
        let s = passes.snapshot
        XCTAssertEqual(s.overlaps, 0, "one pass at a time")
        XCTAssertGreaterThanOrEqual(s.count, 1)
        XCTAssertLessThanOrEqual(s.count, 800, "never more passes than asks")
        XCTAssertEqual(s.seen, 800, "a pass started after the last ask")
        XCTAssertTrue(worker.finish(seconds: 5))
    }

    func testAsksMadeWhileAPassRunsCoalesceIntoOneMore() {
        let passes = Passes()
        let gate = DispatchSemaphore(value: 0)
        let worker = passes.worker(name: uniqueName()) { if passes.snapshot.count == 1 { gate.wait() } }
        defer { worker.finish(seconds: 5) }
        worker.ask()
        XCTAssertTrue(Poll.until(seconds: 5) { passes.snapshot.count == 1 }, "the first pass runs")
        for _ in 0..<50 { worker.ask() }
        gate.signal()
        XCTAssertTrue(worker.waitIdle(seconds: 5))
        XCTAssertEqual(passes.snapshot.count, 2, "fifty asks during a pass: one more pass")
    }

    /// The owner finishing ends the thread, after the pass it asked for (run, not dropped); asks after it run nothing.
    func testFinishRunsTheAskedPassThenEndsTheThread() {
        let name = uniqueName()
        let passes = Passes()
        let worker = passes.worker(name: name) { usleep(50_000) }
        XCTAssertTrue(Poll.until(seconds: 5) { threads(named: name) == 1 }, "the thread runs, named")
        worker.ask()
        XCTAssertTrue(worker.finish(seconds: 5), "ended within the bound")
        XCTAssertTrue(worker.hasEnded)
        XCTAssertEqual(passes.snapshot.count, 1, "the asked pass ran before the thread ended")
        XCTAssertTrue(Poll.until(seconds: 5) { threads(named: name) == 0 }, "no thread left behind")
        worker.ask()
        XCTAssertTrue(worker.waitIdle(seconds: 1))
        XCTAssertEqual(passes.snapshot.count, 1, "an ask after finish runs nothing")
    }

    /// A pass that hangs past the bound: `finish` returns at the bound (false), starts nothing more, and the thread ends
    /// when the pass returns.
    func testFinishIsBoundedWhileAPassHangsAndTheThreadEndsAfterIt() {
        let name = uniqueName()
        let passes = Passes()
        let gate = DispatchSemaphore(value: 0)
        let worker = passes.worker(name: name) { gate.wait() }
        worker.ask()
        XCTAssertTrue(Poll.until(seconds: 5) { passes.snapshot.count == 1 }, "the pass runs (and hangs)")
        worker.ask()  // owed after the hanging one
        let start = Date()
        XCTAssertFalse(worker.finish(seconds: 0.3), "the pass still runs")
        XCTAssertLessThan(Date().timeIntervalSince(start), 3, "bounded")
        XCTAssertFalse(worker.hasEnded)
        gate.signal()
        XCTAssertTrue(Poll.until(seconds: 5) { worker.hasEnded }, "ended once the pass returned")
        XCTAssertTrue(Poll.until(seconds: 5) { threads(named: name) == 0 }, "no thread left behind")
        XCTAssertEqual(passes.snapshot.count, 1, "nothing started past the bound")
    }

    /// Finishing while other threads still ask (a watch ending while the log grows): the thread ends, bounded.
    func testFinishWhileOtherThreadsAsk() {
        for _ in 0..<20 {
            let name = uniqueName()
            let passes = Passes()
            let worker = passes.worker(name: name)
            let group = DispatchGroup()
            for _ in 0..<3 {
                DispatchQueue.global().async(group: group) {
                    for _ in 0..<100 { worker.ask() }
                }
            }
            XCTAssertTrue(worker.finish(seconds: 5))
            group.wait()
            XCTAssertTrue(worker.hasEnded)
            XCTAssertEqual(passes.snapshot.overlaps, 0)
            XCTAssertTrue(Poll.until(seconds: 5) { threads(named: name) == 0 }, "no thread left behind")
        }
    }

    /// Two workers running real notify commands at once (each command a bound child with its guard), asked from several
    /// threads; each command's output arrives, and the workers end.
    func testTwoWorkersRunCommandsAtOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dw-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        signal(SIGPIPE, SIG_IGN)  // as the watch sets it
        let results = Passes()
        let workers = (0..<2).map { i in
            DeliveryWorker(name: uniqueName()) {
                let outcome = NotifyCommand(command: "cat >> '\(dir)/out\(i)'", timeoutSeconds: 10).run(input: Array("{\"w\":\(i)}\n".utf8))
                if outcome == .exited(0) { results.willAsk() }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            for _ in 0..<5 {
                workers[k % 2].ask()
                usleep(20_000)
            }
        }
        for w in workers { XCTAssertTrue(w.waitIdle(seconds: 30)) }
        for w in workers { XCTAssertTrue(w.finish(seconds: 5)) }
        for i in 0..<2 {
            let lines = try String(contentsOfFile: "\(dir)/out\(i)", encoding: .utf8).split(separator: "\n")
            XCTAssertGreaterThanOrEqual(lines.count, 1)
            XCTAssertTrue(lines.allSatisfy { $0 == "{\"w\":\(i)}" }, "\(lines)")
        }
        XCTAssertGreaterThanOrEqual(results.snapshot.asks, 2, "every command exited 0")
    }
}
