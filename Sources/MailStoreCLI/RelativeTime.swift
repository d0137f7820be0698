import Foundation

/// The thread list's timestamps: "3:42 PM" today, "Yesterday", "Tue" this week, "Jan 15" this year,
/// "1/15/24" older (the rule for older dates), in the local time zone.
///
/// One value formats every row of a listing: its formatters are made once (a `DateFormatter` made per row was
/// most of the time of `project --view threads --all`, 13 s for 143,123 rows).
struct RelativeTime {
    private let calendar: Calendar
    private let now: Date
    private let yesterday: Date?
    private let weekAgo: Date?
    private let year: Int
    private let time: DateFormatter, weekday: DateFormatter, monthDay: DateFormatter, numeric: DateFormatter

    /// Formats dates relative to `now` in `calendar`'s time zone (by default the local one as the C library reads `TZ`,
    /// `LocalTime.timeZone`: Foundation's own reading showed `TZ=IST-5:30` as UTC and `TZ=UTC+14` 28 hours off).
    init(now: Date = Date(), calendar: Calendar? = nil) {
        var cal = calendar ?? {
            var local = Calendar.current
            local.timeZone = LocalTime.timeZone(at: now)
            return local
        }()
        cal.locale = Locale(identifier: "en_US_POSIX")
        self.calendar = cal
        self.now = now
        yesterday = cal.date(byAdding: .day, value: -1, to: now)
        weekAgo = cal.date(byAdding: .day, value: -6, to: cal.startOfDay(for: now))
        year = cal.component(.year, from: now)
        func formatter(_ format: String) -> DateFormatter {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = cal.timeZone
            f.dateFormat = format
            return f
        }
        time = formatter("h:mm a")
        weekday = formatter("EEE")
        monthDay = formatter("MMM d")
        numeric = formatter("M/d/yy")
    }

    /// `date` as the thread list shows it.
    func format(_ date: Date) -> String {
        if calendar.isDate(date, inSameDayAs: now) { return time.string(from: date) }
        if let yesterday, calendar.isDate(date, inSameDayAs: yesterday) { return "Yesterday" }
        if let weekAgo, date >= weekAgo, date <= now { return weekday.string(from: date) }
        if calendar.component(.year, from: date) == year { return monthDay.string(from: date) }
        return numeric.string(from: date)
    }

    /// `date` as the thread list shows it, relative to `now`.
    static func format(_ date: Date, now: Date = Date(), calendar: Calendar? = nil) -> String {
        RelativeTime(now: now, calendar: calendar).format(date)
    }
}
