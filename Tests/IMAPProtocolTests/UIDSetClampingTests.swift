import IMAPProtocol
import XCTest

/// Clamping works on ranges: a hostile `1:4294967295` never becomes four billion numbers.
final class UIDSetClampingTests: XCTestCase {
    func testClampingKeepsWhatIsBelowTheLargestAndResolvesStar() throws {
        let huge = UIDSet(1...UInt32.max)
        XCTAssertEqual(huge.clamped(to: 4).description, "1:4")
        XCTAssertEqual(huge.clamped(to: 4).count, 4)
        XCTAssertEqual(UIDSet(ranges: [UIDSet.Range(.uid(3), .star)]).clamped(to: 10).description, "3:10")
        XCTAssertEqual(UIDSet(ranges: [UIDSet.Range(.star, .star)]).clamped(to: 10).description, "10")
        XCTAssertEqual(UIDSet(ranges: [UIDSet.Range(20...30), UIDSet.Range(2...5)]).clamped(to: 10).description, "2:5")
        XCTAssertTrue(huge.clamped(to: 0).isEmpty)
        XCTAssertEqual(UIDSet(0...3).clamped(to: 9).description, "1:3", "UID 0 does not exist")
    }

    func testMembersTestsEachKnownUIDWithoutExpanding() {
        let huge = UIDSet(ranges: [UIDSet.Range(1...1_000_000_000), UIDSet.Range(.uid(4_000_000_000), .star)])
        XCTAssertEqual(huge.members(of: [5, 2_000_000_000, 4_000_000_001, 7]), [5, 4_000_000_001, 7])
        XCTAssertEqual(UIDSet().members(of: [1, 2]), [])
    }
}
