import EventModel
import XCTest

/// `ByteReader.readFlagList` shares the common flag lists' arrays: it must read every list exactly as `read()` does.
final class FlagListTests: XCTestCase {
    /// Both readers over `bytes` from `offset`: the same list (or the same error) and the same offset after.
    private func assertSameReading(_ bytes: [UInt8], from offset: Int = 0, _ message: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        bytes.withUnsafeBytes { raw in
            var a = ByteReader(raw, offset: offset), b = ByteReader(raw, offset: offset)
            let shared = Result { () throws(DecodeError) -> [String] in try a.readFlagList() }
            let plain = Result { () throws(DecodeError) -> [String] in try b.read([String].self) }
            switch (shared, plain) {
            case (.success(let x), .success(let y)):
                XCTAssertEqual(x, y, message, file: file, line: line)
                XCTAssertEqual(a.offset, b.offset, message, file: file, line: line)
            case (.failure(let x), .failure(let y)):
                XCTAssertEqual(x, y, message, file: file, line: line)
            default:
                XCTFail("\(message): \(shared) against \(plain)", file: file, line: line)
            }
        }
    }

    private func encoded(_ lists: [[String]]) -> [UInt8] {
        var w = ByteWriter()
        for l in lists { w.write(l) }
        return w.bytes
    }

    func testCommonListsAndTheirNeighboursReadAsAnyList() throws {
        let lists: [[String]] = [
            [], ["\\Seen"], ["\\Flagged"], ["\\Seen", "\\Flagged"], ["\\Answered"], ["\\Seen", "\\Answered"],
            ["\\Seen", "\\Answered", "\\Flagged"],
            // Beginning as a common list does, then otherwise.
            ["\\Seenx"], ["\\See"], ["\\Seem"], ["\\Seen", "\\Flaggex"], ["\\Seen", "x"], ["\\Seen", "\\Flagged", "\\Deleted"], ["\\Flagged", "\\Seen"],
            ["\\Seen", "\\Answered", "\\Flagged", "$Junk"], ["\\seen"], ["", ""], ["\\Seen", ""],
        ]
        for l in lists {
            // Alone, then followed by more bytes (the next field), then after other bytes.
            assertSameReading(encoded([l]), "\(l)")
            assertSameReading(encoded([l, ["after"]]), "\(l) then more")
            assertSameReading(encoded([["before"], l]), from: encoded([["before"]]).count, "\(l) after more")
        }
        // Two lists in a row: each read where the last one ended.
        let both = encoded([["\\Seen"], ["\\Seen", "\\Flagged"]])
        try both.withUnsafeBytes { (raw) throws in
            var r = ByteReader(raw)
            XCTAssertEqual(try r.readFlagList(), ["\\Seen"])
            XCTAssertEqual(try r.readFlagList(), ["\\Seen", "\\Flagged"])
            XCTAssertTrue(r.isAtEnd)
        }
    }

    func testCutShortCommonListsThrowAsAnyListDoes() {
        for l: [String] in [["\\Seen"], ["\\Seen", "\\Flagged"], ["\\Seen", "\\Answered", "\\Flagged"]] {
            let bytes = encoded([l])
            for cut in 0..<bytes.count {
                assertSameReading(Array(bytes[0..<cut]), "\(l) cut at \(cut)")
            }
        }
    }

    func testRandomListsReadTheSame() {
        var rng = SystemRandomNumberGenerator()
        let words = ["\\Seen", "\\Flagged", "\\Answered", "\\Deleted", "\\Draft", "$Junk", "\\Seen\\", "", "S"]
        for _ in 0..<2_000 {
            let l = (0..<Int.random(in: 0...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }
            var bytes = encoded([l])
            if Bool.random(using: &rng) { bytes.append(contentsOf: (0..<Int.random(in: 0...6, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
            if Bool.random(using: &rng), !bytes.isEmpty { bytes.removeLast(Int.random(in: 1...bytes.count, using: &rng)) }
            assertSameReading(bytes, "\(l) as \(bytes)")
        }
    }
}
