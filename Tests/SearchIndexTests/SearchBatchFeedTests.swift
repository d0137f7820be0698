import EventLog
import EventModel
import Foundation
import MailStore
@testable import SearchIndex
import XCTest

/// A catch-up of 2,000 events or more reads and parses on a second thread (`SearchBatchFeed`) while the
/// caller writes; a smaller one does both on the caller's thread. Both must index the same, and neither may
/// stick on an event that does not decode.
final class SearchBatchFeedTests: SearchIndexTestCase {
    func testAnEventThatDoesNotDecodeIsSkippedByABigAndBySmallCatchUps() throws {
        try importMessages(SearchIndexTests.messages)
        let marker = "MARKER-\(UUID().uuidString)"
        var events = (0..<3_000).map { i in
            NewEvent(event: .emailCategorized(EmailCategorized(emailID: "other-\(i)", category: .updates)),
                     account: "local", stream: "categories", actor: .sync)
        }
        events[1_500].event = .emailCategorized(EmailCategorized(emailID: marker, category: .updates))
        try store.commit(events)
        let head = try store.log.head().sequence
        let logPath = store.directory.logPath
        store = nil

        // The marker's length prefix made longer than the payload: the record's envelope reads, its payload
        // does not decode.
        let file = logPath + "/data.mdb"
        var data = try Data(contentsOf: URL(fileURLWithPath: file))
        guard let range = data.range(of: Data(marker.utf8)) else { return XCTFail("marker not found on disk") }
        XCTAssertEqual(data[range.lowerBound - 1], UInt8(marker.utf8.count))
        data[range.lowerBound - 1] = 0x7F
        try data.write(to: URL(fileURLWithPath: file))

        let log = try EventLog(store: StoreDirectory(path: dir.file("store")))
        var undecodable = 0
        try log.scan(filter: ScanFilter(types: [.emailCategorized])) { ev in
            if (try? ev.decode()) == nil { undecodable += 1 }
            return true
        }
        XCTAssertEqual(undecodable, 1)

        let big = try SearchIndex(path: dir.file("big.sqlite"))
        try big.catchUp(log: log)
        let small = try SearchIndex(path: dir.file("small.sqlite"))
        var through: UInt64 = 0
        while through < head {
            through = min(head, through + 700)
            try small.catchUp(log: log, through: through)
        }
        for idx in [big, small] {
            XCTAssertEqual(try idx.checkpoint(), head)
            XCTAssertEqual(try idx.documentCount(), SearchIndexTests.messages.count)
        }
        store = try MailStore.open(at: dir.file("store"))
        XCTAssertEqual(try ids("zebra", big), ["m4@example.com", "m2@example.org"])
        XCTAssertEqual(try ids("zebra", small), ["m4@example.com", "m2@example.org"])
    }
}
