import Foundation
@testable import MailStoreCLI
import XCTest

/// The quiet hours' local time is the C library's reading of `TZ` (what `date` shows), for every form it takes.
final class LocalTimeTests: XCTestCase {
    func testTheOffsetIsTheCLibrarysReadingOfTZ() throws {
        let saved = getenv("TZ").map { String(cString: $0) }
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        // A winter instant (no summer time anywhere below), 2026-01-15 12:00 UTC.
        let instant = Date(timeIntervalSince1970: 1_768_478_400)
        let cases: [(tz: String, offset: Int)] = [
            ("UTC", 0),
            ("UTC+14", -14 * 3_600),            // POSIX: 14 hours behind UTC (Foundation took +14)
            ("<+1345>-13:45", 13 * 3_600 + 45 * 60), // Foundation took UTC
            (":Asia/Kolkata", 5 * 3_600 + 30 * 60),  // glibc's ':' form; Foundation took UTC
            ("Asia/Kolkata", 5 * 3_600 + 30 * 60),
            ("EST5EDT", -5 * 3_600),
        ]
        for c in cases {
            setenv("TZ", c.tz, 1)
            XCTAssertEqual(LocalTime.utcOffsetSeconds(at: instant), c.offset, "TZ=\(c.tz)")
        }
    }
}
