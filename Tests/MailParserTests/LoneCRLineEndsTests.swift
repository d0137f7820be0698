import XCTest
@testable import MailParser

/// Lines ending in CR alone become LF lines however the file is cut into chunks; a CR LF stays as it is.
final class LoneCRLineEndsTests: XCTestCase {
    private func convert(_ bytes: [UInt8], chunk: Int) -> [UInt8] {
        var c = LoneCRLineEnds()
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let end = min(bytes.count, i + chunk)
            out += bytes[i..<end].withUnsafeBytes { c.convert($0) }
            i = end
        }
        return out + c.finish()
    }

    func testEveryCutGivesTheSameLines() {
        let input = Array("a\rb\r\rc\r\nd\r".utf8)
        let expected = Array("a\nb\n\nc\r\nd\n".utf8)
        for chunk in 1...input.count {
            XCTAssertEqual(convert(input, chunk: chunk), expected, "chunks of \(chunk)")
        }
    }

    func testTheStartOfAFileSaysWhatItIs() {
        XCTAssertEqual(MboxStart.inspect(Array("From a\rx\r".utf8)), .mbox(skip: 0, loneCR: true))
        XCTAssertEqual(MboxStart.inspect(Array("From a\r\nx\r\n".utf8)), .mbox(skip: 0, loneCR: false))
        XCTAssertEqual(MboxStart.inspect([0xEF, 0xBB, 0xBF] + Array("\nFrom a\n".utf8)), .mbox(skip: 3, loneCR: false))
        XCTAssertEqual(MboxStart.inspect([]), .mbox(skip: 0, loneCR: false))
        XCTAssertEqual(MboxStart.inspect([0x1F, 0x8B]), .compressed(.gzip))
        guard case .notMbox = MboxStart.inspect(Array("Fro".utf8)) else { return XCTFail("a file too short for a From_ line") }
    }
}
