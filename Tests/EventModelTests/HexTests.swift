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
        // However the bytes are held: a slice of an array, a sequence with no contiguous storage.
        XCTAssertEqual(Hex.lowercase(all[250...]), "fafbfcfdfeff")
        XCTAssertEqual(Hex.lowercase(all.prefix(8).dropFirst(6)), "0607")
        XCTAssertEqual(Hex.lowercase((0..<4).lazy.map { UInt8($0 * 85) }), "0055aaff")
        XCTAssertEqual(Hex.lowercase(stride(from: 0, to: 0, by: 1).lazy.map { UInt8($0) }), "")
    }
}
