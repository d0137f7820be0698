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

    /// A storm of EXPUNGEs costs O(log n) each, counted in steps (tree nodes and slots visited), wherever they fall:
    /// 200,000 EXPUNGEs of message 1 (the worst case of removing from an array: ~2 * 10^10 UIDs moved, minutes of the
    /// IDLE loop stalled near the 2^20-UID limit) take at most 64 steps each, and the sequence numbers still follow.
    func testAnExpungeStormIsLinear() {
        let n = 200_001
        var c = IdleChanges(count: UInt32(n), uids: (1...UInt32(n)).map { $0 }, storedFlags: { _ in ["\\Seen"] }, now: { 0 })
        for _ in 1..<n { c.heard(.expunge(1)) }
        XCTAssertEqual(c.count, 1)
        XCTAssertEqual(c.uids, [UInt32(n)], "the last message is message 1 now")
        XCTAssertFalse(c.heard(.fetch(seq: 1, attributes: [.flags(["\\Seen"])])), "placed by its sequence number")
        XCTAssertLessThanOrEqual(c.sequence?.steps ?? .max, 64 * n, "steps: \(c.sequence?.steps ?? -1)")
        // From the end, and from the middle, the same.
        var d = IdleChanges(count: UInt32(n), uids: (1...UInt32(n)).map { $0 }, now: { 0 })
        for i in 0..<100_000 { d.heard(.expunge(UInt32(n - 1 - i) / 2 + 1)) }
        XCTAssertEqual(d.count, UInt32(n - 100_000))
        XCTAssertLessThanOrEqual(d.sequence?.steps ?? .max, 64 * n, "steps: \(d.sequence?.steps ?? -1)")
    }

    /// EXPUNGEs, arrivals and look-ups by sequence number in any order give what an array renumbered at each EXPUNGE
    /// (RFC 3501 7.4.1) gives.
    func testSequenceNumbersFollowExpungesAndArrivalsAsAnArrayWould() {
        var model: [UInt32] = Array(1...500)
        var c = IdleChanges(count: 500, uids: model, storedFlags: { _ in [] }, now: { 0 })
        var seed: UInt64 = 12_345
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(max(bound, 1)))
        }
        for round in 0..<20_000 {
            switch next(10) {
            case 0...5 where !model.isEmpty:
                let seq = next(model.count) + 1
                model.remove(at: seq - 1)
                XCTAssertTrue(c.heard(.expunge(UInt32(seq))))
            case 6:
                let k = 1 + next(round % 500 == 0 ? 800 : 3)
                model.append(contentsOf: repeatElement(0, count: k))
                XCTAssertTrue(c.heard(.exists(UInt32(model.count))))
            default:
                guard !model.isEmpty else { continue }
                let seq = next(model.count) + 1
                // A FETCH of the flags held ([]) is no change exactly when its sequence number places a known UID.
                XCTAssertEqual(c.heard(.fetch(seq: UInt32(seq), attributes: [.flags([])])), model[seq - 1] == 0, "round \(round)")
            }
            if round % 997 == 0 { XCTAssertEqual(c.uids, model, "round \(round)") }
        }
        XCTAssertEqual(c.uids, model)
        XCTAssertEqual(c.count, UInt32(model.count))
    }
}
