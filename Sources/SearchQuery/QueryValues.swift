import Foundation

/// The values of `date:` and `size:`.
///
/// ```
/// date-value = point / [point] ".." [point]
/// point      = a `TimePoint`: YYYY / YYYY-MM / YYYY-MM-DD / YYYY-MM-DDTHH:MM[:SS][Z] / 1*DIGIT unit / "today" /
///              "yesterday" / "now"
/// unit       = "y" / "M" / "w" / "d" / "h" / "m" / "s"     ; years, months, weeks, days, hours, minutes, seconds ago
/// size-value = n / n ".." n / n ".." / ".." n / (">" / ">=" / "<" / "<=") n
/// n          = 1*DIGIT ["k" / "K" / "M" / "G"] ["B" / "b"] ; 1024-based
/// ```
/// Absolute dates are UTC calendar days; a range's upper point includes its whole day (month, year; minute, second).
enum QueryValues {
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
        // `date:7d` alone is the last 7 days: up to now, as `date:7d..now` (mail dated in the future, a wrong clock or
        // the year 2200, is not "recent").
        if p.relative { return (p.start, try point("now", offset: offset, now: now).end) }
        return (p.start, p.end)
    }

    /// A point's span: for a calendar date its day (month, year), for a time its minute or second; for a relative
    /// point the instant (`TimePoint`).
    static func point(_ s: String, offset: Int, now: Date) throws(SearchQueryError) -> (start: Int64, end: Int64, relative: Bool) {
        guard let p = TimePoint.parse(s, now: now) else {
            throw SearchQueryError(offset: offset, "invalid date '\(s)'; use \(TimePoint.forms)")
        }
        return (p.start, p.end, p.relative)
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
