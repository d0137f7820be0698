/// A calendar date for SEARCH keys such as `SINCE 1-Feb-1994`.
package struct SearchDate: Hashable, Sendable, CustomStringConvertible {
    /// The year (1–9999).
    package let year: Int
    /// The month (1–12).
    package let month: Int
    /// The day of the month (1–31, valid for the month).
    package let day: Int

    /// The date, or nil when it does not exist or its year is outside 1–9999.
    package init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= InternalDate.daysInMonth(year: year, month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date, in UTC, of the instant `epochSeconds` after 1970-01-01T00:00:00Z.
    package init(epochSeconds: Int64) {
        let clamped = Swift.min(Swift.max(epochSeconds, -62_135_596_800), 253_402_300_799)
        let days = clamped >= 0 ? clamped / 86_400 : (clamped - 86_399) / 86_400
        let civil = InternalDate.civilFromDays(days)
        self.year = Int(civil.year)
        self.month = civil.month
        self.day = civil.day
    }

    /// The date as SEARCH writes it: `1-Feb-1994`.
    package var description: String { "\(day)-\(InternalDate.months[month - 1])-\(year)" }
}
