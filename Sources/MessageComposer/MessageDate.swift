import Foundation

/// The RFC 5322 §3.3 form of a date: `Mon, 16 Nov 2026 10:00:00 +0100`.
package enum MessageDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` as written in a `Date` header, in `timeZone` (whole seconds; the zone's offset at that date).
    package static func format(_ date: Date, timeZone: TimeZone) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let offset = timeZone.secondsFromGMT(for: whole)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? timeZone
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: whole)
        let minutes = abs(offset) / 60
        return "\(weekdays[(parts.weekday ?? 1) - 1]), \(parts.day ?? 1) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) "
            + "\(offset < 0 ? "-" : "+")\(two(minutes / 60))\(two(minutes % 60))"
    }

    /// `value` with at least two digits (0 when nil).
    private static func two(_ value: Int?) -> String {
        let value = value ?? 0
        return value < 10 ? "0\(value)" : "\(value)"
    }
}
