@testable import MailStore
import IMAPProtocol
import XCTest

/// What a watch's IDLE counts as a change, and when it leaves the IDLE to sync.
final class IdleChangesTests: XCTestCase {
    /// An EXISTS repeating the count known is no change; another count, an EXPUNGE, a VANISHED and a FETCH are.
    func testAnExistsRepeatingTheKnownCountIsNoChange() {
        var c = IdleChanges(count: 3, now: { 0 })
        XCTAssertFalse(c.heard(.exists(3)))
        XCTAssertFalse(c.heard(.recent(1)))
        XCTAssertFalse(c.isDue, "nothing heard that changed")
        XCTAssertTrue(c.heard(.exists(4)))
        XCTAssertFalse(c.heard(.exists(4)), "the new count again")
        XCTAssertTrue(c.heard(.expunge(1)))
        XCTAssertEqual(c.count, 3)
        XCTAssertTrue(c.heard(.exists(4)), "a message in place of the one expunged")
        XCTAssertTrue(c.heard(.fetch(seq: 1, attributes: [])))
        XCTAssertTrue(c.heard(.vanished(earlier: false, uids: UIDSet())))
        XCTAssertNil(c.count)
        XCTAssertTrue(c.heard(.exists(3)), "any count after a VANISHED")
    }

    /// A change is due once the server told no other for `quiet` seconds, or `longest` seconds after the first however
    /// many follow.
    func testChangesAreDueWhenQuietOrAtTheLongest() {
        var t = 100.0
        var c = IdleChanges(count: 1, now: { t })
        c.heard(.exists(2))
        t += IdleChanges.quiet - 0.1
        XCTAssertFalse(c.isDue)
        t += 0.1
        XCTAssertTrue(c.isDue, "quiet for long enough")
        var d = IdleChanges(count: 1, now: { t })
        let first = t
        for n in 2...100 {
            d.heard(.exists(UInt32(n)))
            if t - first < IdleChanges.longest { XCTAssertFalse(d.isDue, "\(t - first)") }
            t += IdleChanges.quiet / 2
        }
        XCTAssertTrue(d.isDue)
        var e = IdleChanges(count: 1, now: { t })
        let start = t
        e.heard(.exists(2))
        while !e.isDue {
            t += 0.05
            e.heard(.fetch(seq: 1, attributes: []))
        }
        XCTAssertEqual(t - start, IdleChanges.longest, accuracy: 0.06, "a stream of changes synced at the longest")
    }
}
