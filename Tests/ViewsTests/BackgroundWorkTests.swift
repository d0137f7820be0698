import Foundation
import Glibc
@testable import Views
import XCTest

/// Work on a thread of its own at a lower priority: the worker and the threads it starts run at the nice value
/// asked for; the thread that started it keeps its own.
final class BackgroundWorkTests: XCTestCase {
    private let which = __priority_which_t(PRIO_PROCESS.rawValue)

    func testANicenessLowersTheWorkersPriorityAndNotItsStarters() throws {
        let before = getpriority(which, 0)
        let which = which
        let seen = try BackgroundWork(niceness: 3) { () -> (own: Int32, started: Int32) in
            let own = getpriority(which, 0)
            // A thread the work starts inherits the work's priority.
            let started = try BackgroundWork { getpriority(which, 0) }.wait().get()
            return (own, started)
        }.wait().get()
        XCTAssertEqual(seen.own, min(before + 3, 19), "the worker runs 3 nice levels lower than its starter")
        XCTAssertEqual(seen.started, seen.own, "a thread the worker starts runs as low as the worker")
        XCTAssertEqual(getpriority(which, 0), before, "the starter's priority is its own")
    }

    func testWorkWithoutANicenessRunsAtItsStartersPriority() throws {
        let before = getpriority(which, 0)
        let which = which
        XCTAssertEqual(try BackgroundWork { getpriority(which, 0) }.wait().get(), before)
    }

    func testLoweringStopsAtTheLowestPriority() throws {
        let which = which
        let nice = try BackgroundWork(niceness: 40) { getpriority(which, 0) }.wait().get()
        XCTAssertEqual(nice, 19, "nice values end at 19")
    }
}
