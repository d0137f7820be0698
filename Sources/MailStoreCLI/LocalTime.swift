import Foundation
import Glibc

/// The local time as the C library (and `date`) reads `TZ`: Foundation's `TimeZone.current` disagrees with it for
/// some valid values, and its answer decided the quiet hours. `TZ=UTC+14` is POSIX for 14 hours *behind* UTC
/// (Foundation took +14), `TZ=<+1345>-13:45` and `TZ=:Asia/Kolkata` (glibc's forms) Foundation took for UTC, without a
/// word: notifications were posted in the quiet hours, or held outside them.
enum LocalTime {
    /// Seconds east of UTC of the local time at `date` (`tm_gmtoff` of `localtime_r`, after `tzset` reads `TZ`).
    static func utcOffsetSeconds(at date: Date = Date()) -> Int {
        tzset()
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return TimeZone.current.secondsFromGMT(for: date) }
        return parts.tm_gmtoff
    }
}
