import Projections
import XCTest

extension ContactsReader {
    /// The addresses `prefix` completes in account `acc` (at most 10) by the lists (`complete`), checked to be what the
    /// scan finds for the prefix in the indexed form (`IndexedText`): every path of a completion agrees.
    func completedBothWays(_ prefix: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let listed = try complete(account: "acc", prefix: prefix, limit: 10).map(\.address)
        let needle = Array(IndexedText.form(prefix.lowercased()).utf8)
        let scanned = try scanComplete(account: "acc", needle: needle, limit: 10).map(\.address)
        XCTAssertEqual(listed, scanned, "the lists and the scan, '\(prefix)'", file: file, line: line)
        return listed
    }
}
