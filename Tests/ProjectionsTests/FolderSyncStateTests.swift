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
}
