import EventModel
import Foundation
import MailStore
import XCTest

/// Mail dated in the future keeps its arrival as its date (`FutureDate` in the parser): spam dated 2099 had stayed at
/// the top of the newest-first thread list.
extension ImportTests {
    func testMailDatedInTheFutureIsDatedByItsArrival() throws {
        let future = message("future", extra: "").replacingOccurrences(of: "Mon, 15 Jan 2024 09:30:00 +0000",
                                                                        with: "Thu, 1 Jan 2099 00:00:00 +0000")
        try write("md/cur/1700000000.1.host:2,S", future)
        try write("md/cur/1700000001.2.host:2,S", message("today"))
        let mtime = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: dir.file("md/cur/1700000000.1.host:2,S"))
        XCTAssertEqual(try Importer(store: store).importMaildir(dir.file("md")).imported, 2)
        let byID = Dictionary(uniqueKeysWithValues: try received().map { ($0.messageID ?? "", $0) })
        let f = try XCTUnwrap(byID["future@example.com"])
        XCTAssertEqual(f.date, Timestamp(mtime), "the file's time, the message's arrival")
        XCTAssertEqual(f.dateSource, .fallback)
        XCTAssertTrue(f.warnings.contains { $0.hasPrefix("futureDate:") }, "\(f.warnings)")
        // A file time in the future as well: the time it was stored, said as such (`none`, not `fallback`).
        let later = future.replacingOccurrences(of: "<future@", with: "<later@")
        try write("md/cur/1700000002.3.host:2,S", later)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 4_000_000_000)],
                                              ofItemAtPath: dir.file("md/cur/1700000002.3.host:2,S"))
        let before = Date()
        XCTAssertEqual(try Importer(store: store).importMaildir(dir.file("md")).imported, 1)
        let l = try XCTUnwrap(try received().first { $0.messageID == "later@example.com" })
        XCTAssertEqual(l.dateSource, EventModel.DateSource.none)
        XCTAssertGreaterThanOrEqual(l.date, Timestamp(before.addingTimeInterval(-1)))
        XCTAssertLessThanOrEqual(l.date, Timestamp(Date().addingTimeInterval(1)))
        let t = try XCTUnwrap(byID["today@example.com"])
        XCTAssertEqual(t.dateSource, .header)
        XCTAssertTrue(t.warnings.isEmpty, "\(t.warnings)")
    }
}
