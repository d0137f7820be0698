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

    /// A FETCH of the flags the store holds for its message (told by its UID, or by its sequence number among the
    /// UIDs known) is no change, as an unchanged EXISTS is not; other flags, a message not known, a FETCH without flags,
    /// or one by a sequence number the watch cannot place, are. Sequence numbers follow the EXPUNGEs and EXISTS heard.
    func testAFetchOfTheFlagsTheStoreHoldsIsNoChange() {
        let stored: [UInt32: [String]] = [10: [], 20: ["\\Seen"], 30: ["\\Flagged", "\\Seen"]]
        var c = IdleChanges(count: 3, uids: [10, 20, 30], storedFlags: { stored[$0] }, now: { 0 })
        XCTAssertFalse(c.heard(.fetch(seq: 1, attributes: [.flags([])])))
        XCTAssertFalse(c.heard(.fetch(seq: 2, attributes: [.flags(["\\seen", "\\Recent"])])), "as the store keeps flags")
        XCTAssertFalse(c.heard(.fetch(seq: 3, attributes: [.uid(30), .flags(["\\Seen", "\\Flagged"])])))
        XCTAssertFalse(c.heard(.fetch(seq: 9, attributes: [.uid(20), .flags(["\\Seen"])])), "the UID told is taken")
        XCTAssertFalse(c.isDue, "nothing heard that changed")
        XCTAssertTrue(c.heard(.fetch(seq: 1, attributes: [.flags(["\\Seen"])])), "other flags")
        XCTAssertTrue(c.heard(.fetch(seq: 1, attributes: [.uid(40), .flags([])])), "a message the store does not hold")
        XCTAssertTrue(c.heard(.fetch(seq: 1, attributes: [.modSeq(9)])), "no flags told")
        XCTAssertTrue(c.heard(.fetch(seq: 4, attributes: [.flags([])])), "a sequence number past the count")
        // Message 1 expunged: 20 is message 1 now, 30 message 2; a message arrives as message 3 (UID not known).
        XCTAssertTrue(c.heard(.expunge(1)))
        XCTAssertFalse(c.heard(.fetch(seq: 1, attributes: [.flags(["\\Seen"])])))
        XCTAssertFalse(c.heard(.fetch(seq: 2, attributes: [.flags(["\\Flagged", "\\Seen"])])))
        XCTAssertTrue(c.heard(.exists(3)))
        XCTAssertEqual(c.uids, [20, 30, 0])
        XCTAssertTrue(c.heard(.fetch(seq: 3, attributes: [.flags([])])), "the new message")
        // After a VANISHED the sequence numbers are not known; a FETCH with its UID still is.
        XCTAssertTrue(c.heard(.vanished(earlier: false, uids: UIDSet())))
        XCTAssertNil(c.uids)
        XCTAssertTrue(c.heard(.fetch(seq: 1, attributes: [.flags(["\\Seen"])])))
        XCTAssertFalse(c.heard(.fetch(seq: 1, attributes: [.uid(20), .flags(["\\Seen"])])))
    }

    /// What is remembered to place a FETCH is bounded: UIDs not matching the count, or a server saying the mailbox grew
    /// past ``IdleChanges/rememberedUIDs``, leave sequence numbers unplaced (such FETCHes are changes) and nothing grows.
    func testTheUIDsRememberedAreBounded() {
        XCTAssertNil(IdleChanges(count: 2, uids: [1, 2, 3]).uids, "not the server's count")
        var c = IdleChanges(count: 2, uids: [1, 2], storedFlags: { _ in [] }, now: { 0 })
        XCTAssertTrue(c.heard(.exists(UInt32.max)))
        XCTAssertNil(c.uids, "4294967295 messages are not remembered")
        XCTAssertTrue(c.heard(.fetch(seq: 1, attributes: [.flags([])])))
        var d = IdleChanges(count: 2, uids: [1, 2], storedFlags: { _ in [] }, now: { 0 })
        XCTAssertTrue(d.heard(.exists(UInt32(IdleChanges.rememberedUIDs))))
        XCTAssertEqual(d.uids?.count, IdleChanges.rememberedUIDs)
        XCTAssertTrue(d.heard(.exists(UInt32(IdleChanges.rememberedUIDs + 1))))
        XCTAssertNil(d.uids)
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
