import EventModel
import Foundation
import XCTest

final class HexTests: XCTestCase {
    /// Every byte as its two lowercase digits, in order, as `%02x` writes it; nothing for no bytes.
    func testEveryByteIsTwoLowercaseDigits() {
        let all = (0...255).map { UInt8($0) }
        XCTAssertEqual(Hex.lowercase(all), all.map { String(format: "%02x", $0) }.joined())
        XCTAssertEqual(Hex.lowercase([0x00, 0x0f, 0xa0, 0xff]), "000fa0ff")
        XCTAssertEqual(Hex.lowercase([UInt8]()), "")
        XCTAssertEqual(Hex.lowercase("Zé".utf8), "5ac3a9")
    }
}
