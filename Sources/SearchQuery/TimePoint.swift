import Foundation

/// A point in time as people type it, with the span it names (shared by search's `date:` and `mailstore log
/// --since/--until`):
///
/// ```
/// point = YYYY / YYYY-MM / YYYY-MM-DD                 ; a UTC calendar year, month or day
///       / YYYY-MM-DD ("T" / " ") HH:MM [":" SS] ["Z"] ; a UTC minute or second (as `mailstore log` prints times)
///       / "today" / "yesterday"                       ; a UTC day
///       / "now" / 1*DIGIT unit                        ; an instant: now, or counted back from it
/// unit  = "y" / "M" / "w" / "d" / "h" / "m" / "s"     ; years, months, weeks, days, hours, minutes, seconds
/// ```
package struct TimePoint: Sendable, Equatable {
    /// Where its span starts, in seconds since the epoch.
    package var start: Int64
    /// Where its span ends (exclusive); `start` + 1 for `now`, `start` for a count back.
    package var end: Int64
    /// True for an instant counted from now (`now`, `7d`): "since 7d" means from then on, not that second.
    package var relative: Bool

    /// What `parse` tells a user who typed something else.
    package static let forms = "YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (UTC; `log` and `--as-of` also take a space for the T), today, yesterday, now, or a count back from now like 10s, 30m, 2h, 7d, 2w, 3M, 1y"

    static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    /// The point `text` names, counting back from `now`; nil when it is none of the forms above (or out of range).
    package static func parse(_ text: String, now: Date) -> TimePoint? {
        guard text.utf8.count <= 64 else { return nil }
        let nowSec = Int64(now.timeIntervalSince1970.rounded(.down))
        switch text.lowercased() {
        case "now": return TimePoint(start: nowSec, end: nowSec + 1, relative: true)
        case "today", "yesterday":
            let day = Int64(utc.startOfDay(for: now).timeIntervalSince1970) - (text.lowercased() == "yesterday" ? 86_400 : 0)
            return TimePoint(start: day, end: day + 86_400, relative: false)
        default: break
        }
        if let unit = text.last, "yMwdhms".contains(unit), let n = Int64(text.dropLast()), n >= 0, n <= 100_000 {
            var c = DateComponents()
            switch unit {
            case "y": c.year = -Int(n)
            case "M": c.month = -Int(n)
            case "w": c.day = -7 * Int(n)
            case "d": c.day = -Int(n)
            case "h": c.hour = -Int(n)
            case "m": c.minute = -Int(n)
            default: c.second = -Int(n)
            }
            guard let d = utc.date(byAdding: c, to: now) else { return nil }
            let t = Int64(d.timeIntervalSince1970.rounded(.down))
            return TimePoint(start: t, end: t, relative: true)
        }
        var date = Substring(text), clock: Substring?
        if let sep = text.firstIndex(where: { $0 == "T" || $0 == " " }) {
            date = text[..<sep]
            clock = text[text.index(after: sep)...]
        }
        let parts = date.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4, clock == nil || parts.count == 3,
              let numbers = digits(parts, widths: [4, 2, 2]) else { return nil }
        let y = numbers[0], m = parts.count > 1 ? numbers[1] : 1, d = parts.count > 2 ? numbers[2] : 1
        guard (1...12).contains(m), (1...31).contains(d),
              let day = utc.date(from: DateComponents(year: y, month: m, day: d)), utc.component(.day, from: day) == d else { return nil }
        let dayStart = Int64(day.timeIntervalSince1970)
        if var clock {
            if clock.hasSuffix("Z") { clock = clock.dropLast() }
            let fields = clock.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(fields.count), fields.allSatisfy({ $0.count == 2 }), let hms = digits(fields, widths: [2, 2, 2]),
                  hms[0] < 24, hms[1] < 60, hms.count < 3 || hms[2] < 60 else { return nil }
            let start = dayStart + Int64(hms[0] * 3600 + hms[1] * 60 + (hms.count == 3 ? hms[2] : 0))
            return TimePoint(start: start, end: start + (hms.count == 3 ? 1 : 60), relative: false)
        }
        var step = DateComponents()
        switch parts.count {
        case 1: step.year = 1
        case 2: step.month = 1
        default: step.day = 1
        }
        guard let end = utc.date(byAdding: step, to: day) else { return nil }
        return TimePoint(start: dayStart, end: Int64(end.timeIntervalSince1970), relative: false)
    }

    /// The ASCII decimal numbers of `parts`, each at most its width in digits; nil when one is not.
    private static func digits(_ parts: [Substring], widths: [Int]) -> [Int]? {
        var out: [Int] = []
        for (i, p) in parts.enumerated() {
            guard !p.isEmpty, p.count <= widths[i], p.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let v = Int(p) else { return nil }
            out.append(v)
        }
        return out
    }
}
