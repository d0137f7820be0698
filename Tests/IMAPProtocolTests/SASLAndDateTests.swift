import XCTest
@testable import IMAPProtocol

final class SASLAndDateTests: XCTestCase {
    func testBase64Padding() {
        XCTAssertEqual(Base64.encode(raw("")), [])
        XCTAssertEqual(String(decoding: Base64.encode(raw("f")), as: UTF8.self), "Zg==")
        XCTAssertEqual(String(decoding: Base64.encode(raw("fo")), as: UTF8.self), "Zm8=")
        XCTAssertEqual(String(decoding: Base64.encode(raw("foo")), as: UTF8.self), "Zm9v")
        XCTAssertEqual(String(decoding: Base64.encode([0xFF, 0xFE, 0xFD, 0xFC]), as: UTF8.self), "//79/A==")
    }

    func testInternalDateParsing() throws {
        let d = try XCTUnwrap(InternalDate(parsing: "17-Jul-1996 02:44:25 -0700"))
        XCTAssertEqual(d.epochSeconds, 837_596_665)
        XCTAssertEqual(d.timeZoneOffsetMinutes, -420)
        XCTAssertEqual(d.description, "17-Jul-1996 02:44:25 -0700")
        XCTAssertEqual(InternalDate(parsing: " 1-jan-1970 00:00:00 +0000")?.epochSeconds, 0)
        XCTAssertEqual(InternalDate(parsing: "1-Jan-1970 01:00:00 +0100")?.epochSeconds, 0)
        XCTAssertEqual(InternalDate(parsing: "29-Feb-2024 12:00:00 +0530")?.epochSeconds, 1_709_188_200)
        for bad in ["30-Feb-2024 00:00:00 +0000", "1-Foo-2024 00:00:00 +0000", "1-Jan-2024 24:00:00 +0000",
                    "1-Jan-2024 00:00:00", "1-Jan-2024 00:00:00 +0000 extra", "", "1-Jan-24 00:00:00 +0000",
                    "1-Jan-2024 00:00:00 +0060", "123-Jan-2024 00:00:00 +0000"] {
            XCTAssertNil(InternalDate(parsing: bad), bad)
        }
    }

    func testInternalDateFormatting() {
        XCTAssertEqual(InternalDate(epochSeconds: 0).description, "01-Jan-1970 00:00:00 +0000")
        XCTAssertEqual(InternalDate(epochSeconds: 0, timeZoneOffsetMinutes: 90).description, "01-Jan-1970 01:30:00 +0130")
        XCTAssertEqual(InternalDate(epochSeconds: -1).description, "31-Dec-1969 23:59:59 +0000")
        XCTAssertEqual(InternalDate(epochSeconds: 1_721_177_065, timeZoneOffsetMinutes: 120).description, "17-Jul-2024 02:44:25 +0200")
        // Extreme values are clamped, never trapped on.
        XCTAssertFalse(InternalDate(epochSeconds: .max, timeZoneOffsetMinutes: .max).description.isEmpty)
        XCTAssertFalse(InternalDate(epochSeconds: .min, timeZoneOffsetMinutes: .min).description.isEmpty)
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<1000 {
            let d = InternalDate(epochSeconds: Int64.random(in: -2_000_000_000...5_000_000_000, using: &rng),
                                 timeZoneOffsetMinutes: Int.random(in: -720...840, using: &rng))
            XCTAssertEqual(InternalDate(parsing: d.description), d)
        }
    }

    func testSearchDate() throws {
        XCTAssertEqual(SearchDate(year: 1994, month: 2, day: 1)?.description, "1-Feb-1994")
        XCTAssertNil(SearchDate(year: 2023, month: 2, day: 29))
        XCTAssertNil(SearchDate(year: 2024, month: 13, day: 1))
        XCTAssertEqual(SearchDate(epochSeconds: 1_721_177_065).description, "17-Jul-2024")
        XCTAssertEqual(SearchDate(epochSeconds: .min).year, 1)
    }
}
