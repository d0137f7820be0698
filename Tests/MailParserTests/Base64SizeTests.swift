import XCTest
@testable import MailParser

/// An attachment's size is estimated from its base64 text without decoding it: non-whitespace characters
/// times 3/4, less the padding. The branch-free count must give exactly what a byte-by-byte count gives.
final class Base64SizeTests: XCTestCase {
    private func reference(_ bytes: [UInt8]) -> Int {
        let chars = bytes.filter { !ASCII.isWhitespace($0) }.count
        var padding = 0
        for b in bytes.reversed() where padding < 2 {
            if b == ASCII.equals { padding += 1 } else if !ASCII.isWhitespace(b) { break }
        }
        return max(0, chars * 3 / 4 - padding)
    }

    private func estimate(_ bytes: [UInt8], from: Int = 0, to: Int? = nil) -> Int {
        bytes.withUnsafeBufferPointer { Base64.estimatedSize($0, from: from, to: to ?? bytes.count) }
    }

    func testTheEstimateCountsEveryByteButWhitespaceAndPadding() {
        XCTAssertEqual(estimate(Array("aGVsbG8=\r\n".utf8)), 5)         // "hello"
        XCTAssertEqual(estimate(Array("aGk=\r\n".utf8)), 2)             // "hi"
        XCTAssertEqual(estimate(Array("aG\tV s\u{0B}b\u{0C}G8h\r\n".utf8)), 6)  // "hello!" with every kind of whitespace
        XCTAssertEqual(estimate([]), 0)
        XCTAssertEqual(estimate(Array("==\r\n".utf8)), 0)
        // A range inside the buffer: only its bytes count.
        XCTAssertEqual(estimate(Array("xxxxaGVsbG8=yyyy".utf8), from: 4, to: 12), 5)
    }

    func testRandomTextAgreesWithAByteByByteCount() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8)
        let spaces: [UInt8] = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x00, 0x08, 0x0E, 0x1F, 0x21, 0xFF]
        for _ in 0..<300 {
            let n = Int.random(in: 0...3_000, using: &rng)
            let bytes = (0..<n).map { _ in Bool.random(using: &rng) && Int.random(in: 0..<4, using: &rng) == 0
                ? spaces.randomElement(using: &rng)! : alphabet.randomElement(using: &rng)! }
            XCTAssertEqual(estimate(bytes), reference(bytes), "\(bytes)")
        }
    }

    /// Bodies over 1 MiB are counted the same way (they were counted by line breaks only before).
    func testABigBodyWithSpacesIsCountedExactly() {
        let line = Array("QUJDRE VGR0hJ SktM\r\n".utf8)                  // 16 characters, 2 spaces, CR LF
        var bytes: [UInt8] = []
        while bytes.count < 2 << 20 { bytes += line }
        XCTAssertEqual(estimate(bytes), reference(bytes))
        XCTAssertEqual(estimate(bytes), bytes.count / line.count * 12)
    }
}
