import Foundation

/// The values of `date:` and `size:`.
///
/// ```
/// date-value = point / [point] ".." [point]
/// point      = YYYY / YYYY-MM / YYYY-MM-DD / 1*DIGIT unit / "today" / "yesterday" / "now"
/// unit       = "y" / "M" / "w" / "d" / "h" / "m" / "s"     ; years, months, weeks, days, hours, minutes, seconds ago
/// size-value = n / n ".." n / n ".." / ".." n / (">" / ">=" / "<" / "<=") n
/// n          = 1*DIGIT ["k" / "K" / "M" / "G"] ["B" / "b"] ; 1024-based
/// ```
/// Absolute dates are UTC calendar days; a range's upper point includes its whole day (month, year).
enum QueryValues {
    static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    /// `[lower, upper)` in seconds since the epoch.
    static func dateRange(_ value: String, offset: Int, now: Date) throws(SearchQueryError) -> (Int64?, Int64?) {
        if let r = value.range(of: "..") {
            let a = String(value[..<r.lowerBound]), b = String(value[r.upperBound...])
            if a.isEmpty && b.isEmpty { throw SearchQueryError(offset: offset, "'date:..' needs a date on at least one side") }
            let lo = a.isEmpty ? nil : try point(a, offset: offset, now: now).start
            let bOffset = offset + value.distance(from: value.startIndex, to: r.upperBound)
            let hi = b.isEmpty ? nil : try point(b, offset: bOffset, now: now).end
            if let lo, let hi, lo >= hi {
                throw SearchQueryError(offset: offset, "the date range '\(value)' is empty: its start is not before its end")
            }
            return (lo, hi)
        }
        let p = try point(value, offset: offset, now: now)
        if p.relative { return (p.start, nil) }
        return (p.start, p.end)
    }

    /// A point's span: for a calendar date its day (month, year); for a relative point the instant.
    static func point(_ s: String, offset: Int, now: Date) throws(SearchQueryError) -> (start: Int64, end: Int64, relative: Bool) {
        let nowSec = Int64(now.timeIntervalSince1970.rounded(.down))
        switch s.lowercased() {
        case "now": return (nowSec, nowSec + 1, true)
        case "today", "yesterday":
            let day = utc.startOfDay(for: now).timeIntervalSince1970
            let start = Int64(day) - (s.lowercased() == "yesterday" ? 86_400 : 0)
            return (start, start + 86_400, false)
        default: break
        }
        let invalid = SearchQueryError(offset: offset,
                                       "invalid date '\(s)'; use YYYY, YYYY-MM, YYYY-MM-DD, or a count back from now like 7d, 2w, 3M, 1y")
        if let unit = s.last, "yMwdhms".contains(unit), let n = Int64(s.dropLast()), n >= 0, n <= 100_000 {
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
            guard let d = utc.date(byAdding: c, to: now) else { throw invalid }
            let t = Int64(d.timeIntervalSince1970.rounded(.down))
            return (t, t, true)
        }
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) && Int($0) != nil }) else { throw invalid }
        let y = Int(parts[0])!, m = parts.count > 1 ? Int(parts[1])! : 1, d = parts.count > 2 ? Int(parts[2])! : 1
        guard (1...12).contains(m), (1...31).contains(d) else { throw invalid }
        guard let start = utc.date(from: DateComponents(year: y, month: m, day: d)),
              utc.component(.day, from: start) == d else { throw invalid }
        var step = DateComponents()
        switch parts.count {
        case 1: step.year = 1
        case 2: step.month = 1
        default: step.day = 1
        }
        guard let end = utc.date(byAdding: step, to: start) else { throw invalid }
        return (Int64(start.timeIntervalSince1970), Int64(end.timeIntervalSince1970), false)
    }

    /// `[lower, upper]` in bytes.
    static func sizeRange(_ value: String, offset: Int) throws(SearchQueryError) -> (UInt64?, UInt64?) {
        func n(_ s: Substring, _ at: Int) throws(SearchQueryError) -> UInt64 {
            var t = s
            if t.hasSuffix("B") || t.hasSuffix("b") { t = t.dropLast() }
            var mult: UInt64 = 1
            switch t.last {
            case "k", "K": mult = 1 << 10
            case "M", "m": mult = 1 << 20
            case "G", "g": mult = 1 << 30
            default: break
            }
            if mult > 1 { t = t.dropLast() }
            guard !t.isEmpty, t.allSatisfy({ $0.isASCII && $0.isNumber }), let v = UInt64(t), v <= UInt64.max / mult else {
                throw SearchQueryError(offset: at, "invalid size '\(s)'; use a number of bytes with an optional K, M or G, e.g. size:>1M or size:10K..2M")
            }
            return v * mult
        }
        for (op, len) in [(">=", 2), ("<=", 2), (">", 1), ("<", 1)] where value.hasPrefix(op) {
            let v = try n(value.dropFirst(len), offset + len)
            switch op {
            case ">=": return (v, nil)
            case "<=": return (nil, v)
            case ">": return (v == .max ? v : v + 1, nil)
            default:
                if v == 0 { throw SearchQueryError(offset: offset, "size:<0 can match nothing") }
                return (nil, v - 1)
            }
        }
        if let r = value.range(of: "..") {
            let a = value[..<r.lowerBound], b = value[r.upperBound...]
            if a.isEmpty && b.isEmpty { throw SearchQueryError(offset: offset, "'size:..' needs a size on at least one side") }
            let lo = a.isEmpty ? nil : try n(a, offset)
            let hi = b.isEmpty ? nil : try n(b, offset + value.distance(from: value.startIndex, to: r.upperBound))
            if let lo, let hi, lo > hi { throw SearchQueryError(offset: offset, "the size range '\(value)' is empty") }
            return (lo, hi)
        }
        let v = try n(Substring(value), offset)
        return (v, v)
    }
}
