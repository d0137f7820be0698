import EventModel
import XCTest

/// Text from outside as an event keeps it: whole when it fits, else cut between characters with a note.
final class RecordedTextTests: XCTestCase {
    func testShortTextIsKeptWhole() {
        XCTAssertEqual(RecordedText.bounded("550 5.1.1 No such user"), "550 5.1.1 No such user")
        let edge = String(repeating: "x", count: RecordedText.maxBytes)
        XCTAssertEqual(RecordedText.bounded(edge), edge)
    }

    func testLongTextIsCutBetweenCharactersWithItsSizeSaid() {
        for unit in ["x", "é", "日", "👨‍👩‍👧‍👦"] {
            let text = String(repeating: unit, count: 3 * RecordedText.maxBytes)
            let kept = RecordedText.bounded(text)
            XCTAssertLessThanOrEqual(kept.utf8.count, RecordedText.maxBytes, unit)
            XCTAssertGreaterThan(kept.utf8.count, RecordedText.maxBytes - 64, unit)
            let note = " [... \(text.utf8.count) bytes in all]"
            XCTAssertTrue(kept.hasSuffix(note), unit)
            let head = kept.dropLast(note.count)
            XCTAssertTrue(head.allSatisfy { String($0) == unit }, "cut inside a character: \(unit)")
            XCTAssertTrue(text.hasPrefix(head))
        }
    }
}
