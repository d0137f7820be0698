import EventModel
import XCTest

/// `DomainEvent` holds its payloads (see its doc comment): a payload grown past 72 bytes, or a new one that large,
/// would make every event that large (each decoded event, every array of events) unless its case is `indirect`.
final class DomainEventLayoutTests: XCTestCase {
    func testAnEventIsNoLargerThanItsLargestPayloadHeldInPlace() {
        XCTAssertLessThanOrEqual(MemoryLayout<DomainEvent>.size, 72,
                                 "a payload over 72 bytes is held in the enum: make its case `indirect`")
        // `EmailReceived`, the most common payload, is one reference to its fields.
        XCTAssertEqual(MemoryLayout<EmailReceived>.size, MemoryLayout<AnyObject>.size)
    }
}
