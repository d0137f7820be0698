@testable import EventLog
import EventModel
import Foundation
import MailStore
import XCTest

extension ImportTests {
    /// An imported message's `EmailCategorized` id begins with its `EmailReceived` id's first 8 bytes, so the two are
    /// neighbours in the id index (ordered by the ids' bytes) and one leaf holds both: the index's random leaves a chunk
    /// copies are one a message, not two (`MessageIngest.categorizedID`). Importing again still appends nothing.
    func testAnImportedMessagesTwoIdsAreNeighboursInTheIdIndex() throws {
        for i in 0..<60 { try write("md/cur/\(1_700_000_000 + i).\(i).host:2,S", message("m\(i)", subject: "Sale \(i)")) }
        let s = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(s.imported, 60)
        var all: [[UInt8]] = []
        var pairs: [(categorized: EventID, received: EventID)] = []
        try store.log.scan { ev in
            all.append(ev.envelope.id.bytes)
            if ev.envelope.type == .emailCategorized, let cause = ev.envelope.causationID {
                pairs.append((ev.envelope.id, cause))
            }
            return true
        }
        XCTAssertEqual(pairs.count, 60, "each imported message is categorized beside its EmailReceived")
        // The id index's order: the ids' bytes, compared as LMDB compares keys.
        all.sort { $0.lexicographicallyPrecedes($1) }
        let place = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($0.element, $0.offset) })
        for (categorized, received) in pairs {
            XCTAssertEqual(Array(categorized.bytes.prefix(8)), Array(received.bytes.prefix(8)))
            XCTAssertNotEqual(categorized, received)
            let a = try XCTUnwrap(place[categorized.bytes]), b = try XCTUnwrap(place[received.bytes])
            XCTAssertEqual(abs(a - b), 1, "a message's two ids lie side by side in the id index")
        }
        XCTAssertTrue(try store.log.verify().isClean)

        let head = try store.log.head().sequence
        let again = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(again.imported, 0)
        XCTAssertEqual(again.alreadyPresent, 60)
        XCTAssertEqual(try store.log.head().sequence, head, "re-import appends nothing")
    }
}
