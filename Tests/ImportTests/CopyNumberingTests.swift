@testable import MailStore
import XCTest

/// `Importer.CopyNumbering` numbers copies exactly, in memory and in its file alike, through the file's doublings.
final class CopyNumberingTests: XCTestCase {
    func testCopiesAreNumberedTheSameInMemoryAndInTheFile() throws {
        var generator = SystemRandomNumberGenerator()
        // Keys that share their low bits (one slot, probed past) and 0 among random ones, each met up to 4 times.
        var keys: [UInt64] = [0, 0, 1 << 40, 2 << 40, 3 << 40, 1 << 40]
        for _ in 0..<5_000 {
            let key = generator.next() as UInt64
            keys += Array(repeating: key, count: Int.random(in: 1...4))
        }
        keys.shuffle()
        let bounded = Importer.CopyNumbering(memoryLimit: 100, store: nil)
        let whole = Importer.CopyNumbering(memoryLimit: .max, store: nil)
        var expected: [UInt64: Int] = [:]
        for key in keys {
            expected[key, default: 0] += 1
            XCTAssertEqual(try bounded.copy(of: key), expected[key])
            XCTAssertEqual(try whole.copy(of: key), expected[key])
        }
        XCTAssertTrue(bounded.spilled)
        XCTAssertFalse(whole.spilled)
    }
}
