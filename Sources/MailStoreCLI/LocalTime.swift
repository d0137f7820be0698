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

    /// The local time zone as the C library reads `TZ`, for Foundation's formatters: `TimeZone.current` where it agrees
    /// with `localtime_r` at `now` (keeping its daylight-saving rules), else the zone `TZ` names when Foundation knows
    /// it by that name (`:Asia/Kolkata`, `/usr/share/zoneinfo/...`) and it agrees, else the offset `localtime_r` gives
    /// at `now` (POSIX forms such as `IST-5:30` or `<+1345>-13:45`, which Foundation took for UTC).
    static func timeZone(at now: Date = Date()) -> TimeZone {
        let offset = utcOffsetSeconds(at: now)
        if TimeZone.current.secondsFromGMT(for: now) == offset { return .current }
        if let value = ProcessInfo.processInfo.environment["TZ"] {
            var name = value.hasPrefix(":") ? String(value.dropFirst()) : value
            let zoneinfo = "/usr/share/zoneinfo/"
            if name.hasPrefix(zoneinfo) { name = String(name.dropFirst(zoneinfo.count)) }
            if let zone = TimeZone(identifier: name), zone.secondsFromGMT(for: now) == offset { return zone }
        }
        return TimeZone(secondsFromGMT: offset) ?? .current
    }
}
