import EventModel
import Projections
import XCTest

/// A folder's sync state: the mark of a pass not complete, and the messages given up as unfetchable with their retry.
final class FolderSyncStateTests: XCTestCase {
    /// The mark of a pass about to fetch UID 4294967295 (a hostile server's) stays at the top: it had wrapped to 0.
    func testTheFetchMarkOfTheHighestUIDDoesNotWrap() {
        XCTAssertEqual(FolderSyncState.fetchMark(above: 5), 6)
        XCTAssertEqual(FolderSyncState.fetchMark(above: UInt32.max - 1), UInt32.max)
        XCTAssertEqual(FolderSyncState.fetchMark(above: UInt32.max), UInt32.max)
        let state = FolderSyncState(uidValidity: 1, highestUID: .max, uidNext: nil, highestModSeq: nil,
                                    lowestUIDFetched: FolderSyncState.fetchMark(above: .max))
        XCTAssertFalse(state.isComplete)
    }

    /// A message given up is tried again 24 hours after, then 48 and 96 hours after each time it is given up again,
    /// then weekly; the time saturates.
    func testARetryIsDueADayAfterThenDoublingUpToAWeek() {
        let hour: Int64 = 3_600_000_000
        XCTAssertEqual(UnfetchableMessage.retryDelay(times: 0), 24 * hour)
        XCTAssertEqual(UnfetchableMessage.retryDelay(times: 1), 24 * hour)
        XCTAssertEqual(UnfetchableMessage.retryDelay(times: 2), 48 * hour)
        XCTAssertEqual(UnfetchableMessage.retryDelay(times: 3), 96 * hour)
        XCTAssertEqual(UnfetchableMessage.retryDelay(times: 4), 168 * hour)
        XCTAssertEqual(UnfetchableMessage.retryDelay(times: .max), 168 * hour)
        let m = UnfetchableMessage(uid: 7, givenUpAt: Timestamp(microseconds: 1_000), times: 2)
        XCTAssertFalse(m.isDue(at: Timestamp(microseconds: 1_000 + 48 * hour - 1)))
        XCTAssertTrue(m.isDue(at: Timestamp(microseconds: 1_000 + 48 * hour)))
        XCTAssertEqual(UnfetchableMessage(uid: 7, givenUpAt: Timestamp(microseconds: .max - 5)).retryAt.microseconds, .max)
    }

    /// A message given up while the clock stood ahead (then stepped back: NTP, a VM resumed, a clock set by hand) is due
    /// now when its time given up is more than an hour ahead of the clock: no message given up with the clock right is,
    /// so it has waited (a year ahead, it had waited a year and a day more). One given up less than that ahead waits its
    /// delay from the time recorded; the times saturate at the end of time.
    func testARetryGivenUpWhileTheClockStoodAheadIsDueNow() {
        let hour: Int64 = 3_600_000_000
        let now = Timestamp(microseconds: 56 * 365 * 24 * hour)
        func givenUp(_ ahead: Int64, times: UInt32 = 1) -> UnfetchableMessage {
            UnfetchableMessage(uid: 7, givenUpAt: Timestamp(microseconds: now.microseconds + ahead), times: times)
        }
        XCTAssertTrue(givenUp(365 * 24 * hour).isDue(at: now), "a year ahead")
        XCTAssertTrue(givenUp(2 * hour, times: 4).isDue(at: now), "two hours ahead, its week's delay not waited again")
        XCTAssertTrue(givenUp(hour + 1).isDue(at: now))
        XCTAssertFalse(givenUp(hour).isDue(at: now), "within an hour ahead: as recorded")
        XCTAssertFalse(givenUp(30 * 60 * 1_000_000).isDue(at: Timestamp(microseconds: now.microseconds + 24 * hour)))
        XCTAssertTrue(givenUp(30 * 60 * 1_000_000).isDue(at: Timestamp(microseconds: now.microseconds + 24 * hour + 30 * 60 * 1_000_000)))
        let last = Timestamp(microseconds: .max)
        XCTAssertFalse(UnfetchableMessage(uid: 7, givenUpAt: last).isDue(at: Timestamp(microseconds: .max - hour)), "saturated")
        XCTAssertTrue(UnfetchableMessage(uid: 7, givenUpAt: last).isDue(at: Timestamp(microseconds: .max - hour - 1)))
        XCTAssertTrue(UnfetchableMessage(uid: 7, givenUpAt: last).isDue(at: last))
    }

    /// A checkpoint of schema 2 (before the give-up times) still decodes: its UIDs given up are taken as given up once,
    /// at the event's own time; schema 3 keeps each one's time and count.
    func testACheckpointOfSchema2TakesItsOwnTimeForTheMessagesItGaveUp() throws {
        var w = ByteWriter()
        w.write("INBOX"); w.write(UInt32(9)); w.write(UInt32(600)); w.write(UInt32?(601)); w.write(UInt64?(7))
        w.write(UInt32?.none); w.write([UInt32(300), 400])
        let bytes = w.bytes
        let old = try bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            return try FolderSyncCheckpointed(from: &r, version: 2)
        }
        XCTAssertEqual(old.unfetchable, [300, 400])
        XCTAssertEqual(old.givenUpAt, [])
        let recorded = Timestamp(microseconds: 1_765_000_000_000_000)
        XCTAssertEqual(FolderSyncState(old, recordedAt: recorded).givenUp,
                       [UnfetchableMessage(uid: 300, givenUpAt: recorded), UnfetchableMessage(uid: 400, givenUpAt: recorded)])
        let at = Timestamp(microseconds: 5)
        let new = FolderSyncCheckpointed(folder: "INBOX", uidValidity: 9, highestUID: 600, unfetchable: [300, 400],
                                         givenUpAt: [at, at], givenUpTimes: [3, 1])
        var v = ByteWriter()
        new.encode(to: &v)
        let read = try v.bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            return try FolderSyncCheckpointed(from: &r, version: FolderSyncCheckpointed.schemaVersion)
        }
        XCTAssertEqual(read, new)
        XCTAssertEqual(FolderSyncState(read, recordedAt: recorded).givenUp,
                       [UnfetchableMessage(uid: 300, givenUpAt: at, times: 3), UnfetchableMessage(uid: 400, givenUpAt: at)])
    }
}
