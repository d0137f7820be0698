import Foundation
import XCTest
@testable import MailParser

/// A date in the future (a sender's wrong clock, spam dated years ahead to stay first in a newest-first list) is
/// replaced by the message's arrival: the topmost Received date, else, past the present, the caller's fallback
/// (internalDate date, From_ line, file time), else the present.
final class FutureDateTests: XCTestCase {
    private let now = utc(2026, 12, 6, 12)

    private func parsed(_ headers: String, fallback: Date? = nil, now: Date? = nil) -> ParsedMessage {
        MailParser.parse(bytes(headers + "\nSubject: s\n\nbody\n"), fallbackDate: fallback, now: now)
    }

    func testADateAfterTheArrivalBecomesTheArrival() {
        let m = parsed("Received: from a by b; Tue, 2 Jan 2024 10:00:00 +0000\nDate: Tue, 19 Jan 2038 03:14:07 +0000",
                       now: now)
        XCTAssertEqual(m.date, utc(2024, 1, 2, 10))
        XCTAssertEqual(m.dateSource, .received)
        XCTAssertTrue(hasWarning(m, .futureDate))
        XCTAssertTrue(m.warnings.first { $0.code == .futureDate }!.detail.contains("2038-01-19T03:14:07Z"))
        // Against the Received header alone, with no present given (mail of years ago dated after it arrived).
        XCTAssertEqual(parsed("Received: from a by b; Tue, 2 Jan 2024 10:00:00 +0000\nDate: Sat, 6 Jan 2024 10:00:00 +0000").date,
                       utc(2024, 1, 2, 10))
    }

    func testAWrongZoneOrAFastClockIsLeftAlone() {
        // 14 hours after the arrival (a local time labelled UTC in a far zone): within the day allowed.
        let m = parsed("Received: from a by b; Tue, 2 Jan 2024 10:00:00 +0000\nDate: Wed, 3 Jan 2024 00:00:00 +0000", now: now)
        XCTAssertEqual(m.date, utc(2024, 1, 3))
        XCTAssertEqual(m.dateSource, .header)
        XCTAssertFalse(hasWarning(m, .futureDate))
        // Before the arrival (a slow clock, mail that took days): kept.
        XCTAssertEqual(parsed("Received: from a by b; Tue, 9 Jan 2024 10:00:00 +0000\nDate: Tue, 2 Jan 2024 10:00:00 +0000",
                              now: now).date, utc(2024, 1, 2, 10))
    }

    func testARelayWithAnUnsetClockIsNoArrival() {
        let m = parsed("Received: from a by b; Thu, 1 Jan 1970 00:00:05 +0000\nDate: Tue, 2 Jan 2024 10:00:00 +0000", now: now)
        XCTAssertEqual(m.date, utc(2024, 1, 2, 10))
        XCTAssertFalse(hasWarning(m, .futureDate))
        // A clock years slow (reset to 2000) is no arrival where the internal date says when the mail came.
        let slow = "Received: from a by b; Sat, 1 Jan 2000 00:00:00 +0000\nDate: Tue, 2 Jan 2024 10:00:00 +0000"
        XCTAssertEqual(parsed(slow, fallback: utc(2024, 1, 2, 10, 5), now: now).date, utc(2024, 1, 2, 10))
        // Spam dated ahead of both: the Received date.
        let spam = "Received: from a by b; Tue, 2 Jan 2024 10:00:00 +0000\nDate: Thu, 1 Jan 2099 00:00:00 +0000"
        XCTAssertEqual(parsed(spam, fallback: utc(2024, 1, 2, 10, 1), now: now).date, utc(2024, 1, 2, 10))
    }

    func testAFallbackDateInTheFutureBecomesThePresent() {
        let m = parsed("X-No-Date: 1", fallback: utc(2031, 1, 1), now: now)
        XCTAssertEqual(m.date, now)
        XCTAssertEqual(m.dateSource, DateSource.none)
        XCTAssertTrue(hasWarning(m, .futureDate))
        XCTAssertEqual(parsed("X-No-Date: 1", fallback: utc(2026, 12, 1), now: now).date, utc(2026, 12, 1))
    }

    func testADateAfterThePresentBecomesTheFallbackOrThePresent() {
        let future = "Date: Tue, 19 Jan 2038 03:14:07 +0000"
        let internalDate = utc(2026, 12, 1)
        let a = parsed(future, fallback: internalDate, now: now)
        XCTAssertEqual(a.date, internalDate)
        XCTAssertEqual(a.dateSource, .fallback)
        XCTAssertTrue(hasWarning(a, .futureDate))
        // A fallback in the future too (a file time of a wrong clock): the present.
        let b = parsed(future, fallback: utc(2030, 1, 1), now: now)
        XCTAssertEqual(b.date, now)
        XCTAssertEqual(b.dateSource, DateSource.none)
        XCTAssertEqual(parsed(future, now: now).date, now)
        // A Received date in the future is no arrival: the present decides.
        let c = parsed("Received: from a by b; Wed, 1 Jan 2031 00:00:00 +0000\n" + future, fallback: internalDate, now: now)
        XCTAssertEqual(c.date, internalDate)
        // Without Date, a Received date past the present is corrected as well.
        let d = parsed("Received: from a by b; Wed, 1 Jan 2031 00:00:00 +0000", fallback: internalDate, now: now)
        XCTAssertEqual(d.date, internalDate)
        XCTAssertEqual(d.dateSource, .fallback)
        // Within a day of the present: kept. No present given: kept.
        XCTAssertEqual(parsed("Date: Sun, 6 Dec 2026 23:00:00 +0000", now: now).date, utc(2026, 12, 6, 23))
        XCTAssertEqual(parsed(future).date, utc(2038, 1, 19, 3, 14, 7))
        XCTAssertFalse(hasWarning(parsed(future), .futureDate))
    }
}
