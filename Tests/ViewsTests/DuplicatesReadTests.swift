import MailStore
import Projections
import XCTest

/// The dedup view read a stretch at a time (`forEachDuplicate`): every message with more than one copy, once, in
/// the order `duplicates` gives, whatever the stretch, and nothing of another account or of a single copy.
final class DuplicatesReadTests: ViewsTestCase {
    func testDuplicatesReadInStretchesAreThoseReadAtOnce() throws {
        try folder("INBOX", role: .inbox)
        try folder("Archive", role: .archive)
        for i in 0..<40 {
            try receive("a\(i)", messageID: "m\(i)@example.com")
            if i % 3 == 0 { try receive("b\(i)", folder: "Archive", messageID: "m\(i)@example.com") }
            if i % 9 == 0 { try receive("c\(i)", folder: "Archive", messageID: "m\(i)@example.com") }
        }
        try receive("other", account: "other", messageID: "m0@example.com")
        try receive("other2", account: "other", folder: "Archive", messageID: "m0@example.com")
        let v = try views()
        let all = try v.duplicates(account: "acct")
        XCTAssertEqual(all.count, 14, "m0, m3, ..., m39")
        XCTAssertEqual(Set(all.map(\.0)), Set(stride(from: 0, to: 40, by: 3).map { "m\($0)@example.com" }))
        XCTAssertEqual(all.first { $0.0 == "m9@example.com" }?.1.count, 3)
        for visits in [1, 2, 3, 7, 40, 41, 4_096] {
            var read: [(String, [String])] = []
            try v.forEachDuplicate(account: "acct", visits: visits) { read.append(($0, $1.map(\.emailID))) }
            XCTAssertEqual(read.map(\.0), all.map(\.0), "visits \(visits)")
            XCTAssertEqual(read.map(\.1), all.map { $0.1.map(\.emailID) }, "visits \(visits)")
        }
        var none = 0
        try v.forEachDuplicate(account: "nobody") { _, _ in none += 1 }
        XCTAssertEqual(none, 0)
    }
}
