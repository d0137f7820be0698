import XCTest
@testable import MailParser

final class DateTests: XCTestCase {
    private func check(_ s: String, _ expected: Date, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(MailDate.parse(s), expected, s, file: file, line: line)
    }

    func testRFC5322() {
        check("Tue, 15 Jan 2024 10:20:30 +0100", utc(2024, 1, 15, 9, 20, 30))
        check("Thu, 16 Jun 2016 22:14:41 -0400", utc(2016, 6, 17, 2, 14, 41))
        check("Wed, 18 Nov 2009 02:08:10 -0800", utc(2009, 11, 18, 10, 8, 10))
    }

    func testMissingWeekdayAndSeconds() {
        check("15 Jan 2024 10:20 +0000", utc(2024, 1, 15, 10, 20))
        check("1 Feb 2024 00:00:00 GMT", utc(2024, 2, 1))
    }

    func testTwoAndThreeDigitYears() {
        check("Mon, 1 Jan 24 12:00:00 +0000", utc(2024, 1, 1, 12))
        check("Fri, 31 Dec 99 23:59:59 +0000", utc(1999, 12, 31, 23, 59, 59))
        check("Fri, 31 Dec 103 23:59:59 +0000", utc(2003, 12, 31, 23, 59, 59))
    }

    func testNamedZones() {
        check("Mon, 1 Jan 2024 12:00:00 UT", utc(2024, 1, 1, 12))
        check("Mon, 1 Jan 2024 12:00:00 GMT", utc(2024, 1, 1, 12))
        check("Mon, 1 Jan 2024 12:00:00 EST", utc(2024, 1, 1, 17))
        check("Mon, 1 Jul 2024 12:00:00 EDT", utc(2024, 7, 1, 16))
        check("Mon, 1 Jan 2024 12:00:00 CST", utc(2024, 1, 1, 18))
        check("Mon, 1 Jul 2024 12:00:00 CDT", utc(2024, 7, 1, 17))
        check("Mon, 1 Jan 2024 12:00:00 MST", utc(2024, 1, 1, 19))
        check("Mon, 1 Jul 2024 12:00:00 MDT", utc(2024, 7, 1, 18))
        check("Mon, 1 Jan 2024 12:00:00 PST", utc(2024, 1, 1, 20))
        check("Mon, 1 Jul 2024 12:00:00 PDT", utc(2024, 7, 1, 19))
        check("Mon, 1 Jan 2024 12:00:00 Z", utc(2024, 1, 1, 12))
        // Military zones other than Z are taken as +0000 (RFC 5322 4.3).
        check("Mon, 1 Jan 2024 12:00:00 A", utc(2024, 1, 1, 12))
    }

    func testCommentsAndDotsAndOddSpacing() {
        check("Mon, 1 Jul 2024 12:00:00 +0200 (CEST)", utc(2024, 7, 1, 10))
        check("Mon,1 Jul 2024 12.30.15 +0000", utc(2024, 7, 1, 12, 30, 15))
        check("  Mon ,  1   Jul   2024   12:00   +0000  ", utc(2024, 7, 1, 12))
        check("Mon, 01-Jul-2024 12:00:00 +0000", utc(2024, 7, 1, 12))
        check("Monday, July 1, 2024 3:04:05 PM -0500", utc(2024, 7, 1, 20, 4, 5))
        check("Mon, 1 Jul 2024 12:00:00 GMT+0200", utc(2024, 7, 1, 10))
    }

    func testAsctimeForms() {
        check("Mon Jan  1 00:00:00 2024", utc(2024, 1, 1))
        check("Thu Aug 26 16:49:36 2021", utc(2021, 8, 26, 16, 49, 36))
    }

    func testISO8601Forms() {
        check("2024-01-15T10:20:30Z", utc(2024, 1, 15, 10, 20, 30))
        check("2024-01-15T10:20:30.123+01:00", utc(2024, 1, 15, 9, 20, 30))
        check("2024-01-15 10:20:30 -0500", utc(2024, 1, 15, 15, 20, 30))
        check("2024-01-15", utc(2024, 1, 15))
    }

    func testMissingZoneAssumesUTCWithWarning() {
        let m = parse("Date: Mon, 1 Jul 2024 12:00:00\n\nx")
        XCTAssertEqual(m.date, utc(2024, 7, 1, 12))
        XCTAssertEqual(m.dateSource, .header)
        XCTAssertTrue(hasWarning(m, .missingTimeZone))
    }

    func testGarbageDates() {
        XCTAssertNil(MailDate.parse(""))
        XCTAssertNil(MailDate.parse("yesterday"))
        XCTAssertNil(MailDate.parse("Mon, 45 Foo 2024 99:99:99"))
        XCTAssertNil(MailDate.parse("Mon, 1 Jan 2024 25:00:00 +0000"))
        XCTAssertNil(MailDate.parse(String(repeating: "9", count: 500)))
    }

    func testReceivedFallback() {
        let m = parse("""
        Received: from a by b; Tue, 2 Jan 2024 10:00:00 +0000
        Received: from c by d; Mon, 1 Jan 2024 09:00:00 +0000
        Date: not a date

        x
        """)
        XCTAssertEqual(m.date, utc(2024, 1, 2, 10))
        XCTAssertEqual(m.dateSource, .received)
        XCTAssertTrue(hasWarning(m, .unparseableDate))
    }

    func testReceivedWithSemicolonsInsideUsesLastOne() {
        let m = parse("Received: from a (x; y) by b; id 1; Tue, 2 Jan 2024 10:00:00 +0000\n\nx")
        XCTAssertEqual(m.date, utc(2024, 1, 2, 10))
        XCTAssertTrue(hasWarning(m, .missingDate))
    }

    func testCallerFallbackAndNone() {
        let fb = utc(2020, 5, 5)
        let m = parse("Subject: no date\n\nx", fallbackDate: fb)
        XCTAssertEqual(m.date, fb)
        XCTAssertEqual(m.dateSource, .fallback)
        let n = parse("Subject: no date\n\nx")
        XCTAssertNil(n.date)
        XCTAssertEqual(n.dateSource, DateSource.none)
        XCTAssertTrue(hasWarning(n, .missingDate))
    }

    func testHeaderDateWins() {
        let m = parse("Date: Mon, 1 Jan 2024 00:00:00 +0000\nReceived: by x; Tue, 2 Jan 2024 10:00:00 +0000\n\nx",
                      fallbackDate: utc(2000, 1, 1))
        XCTAssertEqual(m.date, utc(2024, 1, 1))
        XCTAssertEqual(m.dateSource, .header)
    }

    func testEpochComputation() {
        XCTAssertEqual(MailDate.epochSeconds(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0), 0)
        XCTAssertEqual(MailDate.epochSeconds(year: 2000, month: 3, day: 1, hour: 0, minute: 0, second: 0), 951_868_800)
        XCTAssertEqual(MailDate.epochSeconds(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59), -1)
    }
}

final class DateLocaleTests: XCTestCase {
    func testNonEnglishMonthNames() {
        XCTAssertEqual(MailDate.parse("1 Mär 2024 10:00:00 +0100"), utc(2024, 3, 1, 9))
        XCTAssertEqual(MailDate.parse("1 fév 2024 10:00:00 +0000"), utc(2024, 2, 1, 10))
        XCTAssertEqual(MailDate.parse("1 Okt 2024 10:00:00 +0000"), utc(2024, 10, 1, 10))
        XCTAssertEqual(MailDate.parse("1 Mon 2024 10:00:00 +0000"), nil)
    }
}

final class DateNumericTests: XCTestCase {
    func testNumericDayMonthYear() {
        XCTAssertEqual(MailDate.parse("Mon, 15.01.2024 10:20:30 +0100"), utc(2024, 1, 15, 9, 20, 30))
    }

    func testSingleDigitTimeParts() {
        XCTAssertEqual(MailDate.parse("Tue, 3 Feb 2009 7:3:5 +0000"), utc(2009, 2, 3, 7, 3, 5))
    }

    func testOffsetForms() {
        XCTAssertEqual(MailDate.parse("1 Jan 2024 12:00:00 +01"), utc(2024, 1, 1, 11))
        XCTAssertEqual(MailDate.parse("1 Jan 2024 12:00:00 +05:30"), utc(2024, 1, 1, 6, 30))
        XCTAssertEqual(MailDate.parse("1 Jan 2024 12:00:00 -0000"), utc(2024, 1, 1, 12))
    }
}
