import Foundation

/// The thread list's timestamps: "3:42 PM" today, "Yesterday", "Tue" this week, "Jan 15" this year,
/// "1/15/24" older (the rule for older dates), in the local time zone.
enum RelativeTime {
    static func format(_ date: Date, now: Date = Date(), calendar: Calendar = .current) -> String {
        var cal = calendar
        cal.locale = Locale(identifier: "en_US_POSIX")
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = cal.timeZone
        if cal.isDate(date, inSameDayAs: now) {
            f.dateFormat = "h:mm a"
            return f.string(from: date)
        }
        if let y = cal.date(byAdding: .day, value: -1, to: now), cal.isDate(date, inSameDayAs: y) { return "Yesterday" }
        if let weekAgo = cal.date(byAdding: .day, value: -6, to: cal.startOfDay(for: now)), date >= weekAgo, date <= now {
            f.dateFormat = "EEE"
            return f.string(from: date)
        }
        if cal.component(.year, from: date) == cal.component(.year, from: now) {
            f.dateFormat = "MMM d"
            return f.string(from: date)
        }
        f.dateFormat = "M/d/yy"
        return f.string(from: date)
    }
}
