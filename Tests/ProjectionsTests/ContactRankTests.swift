import EventModel
import Projections
import XCTest

/// A pass over the prefix index reads each entry's rank in place (`ContactRank(borrowing:)`): it must give what a
/// full decode gives, and refuse what a full decode refuses (a damaged view file's value is skipped, not misread).
final class ContactRankTests: XCTestCase {
    private func decoded(_ bytes: [UInt8]) -> ContactRank? {
        bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            return try? ContactRank(from: &r)
        }
    }

    private func borrowed(_ bytes: [UInt8]) -> ContactRank? {
        bytes.withUnsafeBytes { ContactRank(borrowing: $0) }
    }

    func testTheRankReadInPlaceIsTheDecodedOne() {
        let ranks = [
            ContactRank(sent: 0, count: 1, lastSeen: Timestamp(microseconds: 0)),
            ContactRank(sent: 3, count: 300, lastSeen: Timestamp(microseconds: 1_700_000_000_000_000)),
            ContactRank(sent: .max, count: .max, lastSeen: Timestamp(microseconds: .min)),
            ContactRank(sent: 1 << 63, count: 127, lastSeen: Timestamp(microseconds: -1)),
        ]
        for rank in ranks {
            var w = ByteWriter()
            rank.write(to: &w)
            XCTAssertEqual(borrowed(w.bytes), rank)
            // Bytes after the rank are not its business, as for the reader.
            XCTAssertEqual(borrowed(w.bytes + [0xFF, 0x00]), rank)
        }
    }

    func testWhatAFullDecodeRefusesIsRefused() {
        var w = ByteWriter()
        ContactRank(sent: 2, count: 400, lastSeen: Timestamp(microseconds: 1_700_000_000_000_000)).write(to: &w)
        let good = w.bytes
        var cases: [[UInt8]] = [[], [0x80], [1, 2], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 1, 1],
                                [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0x01, 1, 1]]
        // Every cut of a good value, and random bytes.
        cases += (0..<good.count).map { Array(good[..<$0]) }
        var generator = SystemRandomNumberGenerator()
        cases += (0..<2_000).map { _ in (0..<Int.random(in: 0...14, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        for bytes in cases {
            XCTAssertEqual(borrowed(bytes), decoded(bytes), "\(bytes)")
        }
        XCTAssertNil(borrowed([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 1, 1]))
    }
}
