import EventLog
import EventModel
import Foundation
import MailStore
import Projections
import TestSupport
import Views
import XCTest

/// Views far behind the log (by `rebuildBehind` events and by half of the log) are rebuilt, not caught up: the
/// same views, in a new generation; views a little behind are caught up in place.
final class RebuildBehindTests: ViewsTestCase {
    private func generation(_ views: ViewStore) -> String { (views.path as NSString).lastPathComponent }

    func testTheRuleAsksForBothDistances() {
        XCTAssertTrue(ViewStore.rebuilds(behind: 100, head: 200, from: 50), "half of the log")
        XCTAssertFalse(ViewStore.rebuilds(behind: 99, head: 200, from: 50), "less than half")
        XCTAssertFalse(ViewStore.rebuilds(behind: 40, head: 40, from: 50), "all of a log shorter than the minimum")
        XCTAssertTrue(ViewStore.rebuilds(behind: 50, head: 50, from: 50))
        XCTAssertTrue(ViewStore.rebuilds(behind: 1_500_000, head: 2_000_000, from: ViewStore.rebuildBehind))
        XCTAssertFalse(ViewStore.rebuilds(behind: 40_000, head: 60_000, from: ViewStore.rebuildBehind), "under the minimum")
        XCTAssertTrue(ViewStore.rebuilds(behind: .max, head: 10, from: 5), "past the head: no overflow")
    }

    func testViewsFarBehindAreRebuiltAndEqualAFreshBuild() throws {
        for i in 0..<10 { _ = try receive("m\(i)") }
        let before = try ViewStore.open(store: store.directory, log: store.log)
        let first = generation(before)
        for i in 10..<40 { _ = try receive("m\(i)", inReplyTo: i % 3 == 0 ? ["m\(i - 1)@example.com"] : []) }
        var notices: [String] = []
        let rebuilt = try ViewStore.open(store: store.directory, log: store.log, notice: { notices.append($0) }, rebuildBehind: 20)
        XCTAssertTrue(notices.contains { $0.contains("events behind the log") }, "\(notices)")
        XCTAssertNotEqual(generation(rebuilt), first, "a new generation")
        let head = try store.log.head().sequence
        XCTAssertEqual(Set(try rebuilt.checkpoints().values), [head])
        let fresh = try ViewStore.scratch(in: dir.file("fresh"), log: store.log, through: head)
        try assertEqualViews(rebuilt, fresh, "rebuilt for being far behind, against a build from empty")
    }

    func testViewsALittleBehindAreCaughtUpInPlace() throws {
        for i in 0..<30 { _ = try receive("m\(i)") }
        let before = try ViewStore.open(store: store.directory, log: store.log)
        for i in 30..<40 { _ = try receive("m\(i)") }
        var notices: [String] = []
        let caughtUp = try ViewStore.open(store: store.directory, log: store.log, notice: { notices.append($0) }, rebuildBehind: 20)
        XCTAssertEqual(notices, [])
        XCTAssertEqual(generation(caughtUp), generation(before), "the same generation, caught up")
        XCTAssertEqual(Set(try caughtUp.checkpoints().values), [try store.log.head().sequence])
    }

    func testACatchUpOfManyEventsIsToldFirst() throws {
        for i in 0..<30 { _ = try receive("m\(i)") }
        _ = try ViewStore.open(store: store.directory, log: store.log)
        let caughtUpAt = try store.log.head().sequence
        for i in 30..<40 { _ = try receive("m\(i)") }
        let behind = try store.log.head().sequence - caughtUpAt
        var notices: [String] = []
        _ = try ViewStore.open(store: store.directory, log: store.log, notice: { notices.append($0) }, rebuildBehind: 1_000,
                               catchUpNotice: behind + 1)
        XCTAssertEqual(notices, [], "one event fewer than the threshold: nothing said")
        let caughtUpAgain = try store.log.head().sequence
        for i in 40..<50 { _ = try receive("m\(i)") }
        let behindNow = try store.log.head().sequence - caughtUpAgain
        let views = try ViewStore.open(store: store.directory, log: store.log, notice: { notices.append($0) }, rebuildBehind: 1_000,
                                       catchUpNotice: behindNow)
        XCTAssertEqual(notices, ["the views are \(behindNow) events behind the log (of \(caughtUpAgain + behindNow)); folding them in"])
        XCTAssertEqual(Set(try views.checkpoints().values), [try store.log.head().sequence], "and caught up")
    }
}
