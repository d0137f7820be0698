import Foundation

/// Hand-written, allocation-light parsing of the date formats found in mail:
/// RFC 5322 date-time including obsolete forms (missing weekday, two-digit
/// years, named and military zones, missing seconds, comments), dots
/// instead of colons, asctime (`Mon Jan  1 00:00:00 2024`) and ISO
/// 8601-like forms. No `DateFormatter`.
package enum MailDate {
    /// Parses a date; a missing zone is taken as UTC.
    package static func parse(_ s: String) -> Date? {
        parseDetailed(s).map { Date(timeIntervalSince1970: TimeInterval($0.epoch)) }
    }

    /// Seconds since 1970 for a UTC calendar date and time (proleptic
    /// Gregorian calendar).
    package static func epochSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        var y = Int64(year)
        let m = Int64(month)
        if m <= 2 { y -= 1 }
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86_400 + Int64(hour) * 3_600 + Int64(minute) * 60 + Int64(second)
    }

    /// The parsed epoch seconds and whether the text had a time zone.
    static func parseDetailed(_ s: String) -> (epoch: Int64, hasZone: Bool)? {
        var copy = s
        return copy.withUTF8 { parse(buffer: $0) }
    }

    /// Collected fields while scanning tokens.
    private struct Fields {
        var day: Int?
        var month: Int?
        var year: Int?
        var yearDigits = 0
        var hour: Int?
        var minute = 0
        var second = 0
        var zoneMinutes: Int?
        var namedZoneMinutes: Int?
        var pm: Bool?
    }

    private static func parse(buffer b: UnsafeBufferPointer<UInt8>) -> (epoch: Int64, hasZone: Bool)? {
        let n = b.count
        guard n > 0, n < 4_096 else { return nil }
        var i = 0
        while i < n, ASCII.isWhitespace(b[i]) { i += 1 }
        if i + 4 < n, ASCII.isDigit(b[i]), ASCII.isDigit(b[i + 1]), ASCII.isDigit(b[i + 2]),
           ASCII.isDigit(b[i + 3]), b[i + 4] == ASCII.minus {
            return parseISO(b, from: i)
        }
        var f = Fields()
        // Tokenize on whitespace, commas and comments.
        while i < n {
            let c = b[i]
            if ASCII.isWhitespace(c) || c == ASCII.comma {
                i += 1
                continue
            }
            if c == ASCII.openParen {
                i = HeaderParameters.skipComment(b, from: i)
                continue
            }
            var j = i
            while j < n, !ASCII.isWhitespace(b[j]), b[j] != ASCII.comma, b[j] != ASCII.openParen { j += 1 }
            classify(b, i, j, &f)
            i = j
        }
        return finish(f)
    }

    /// Classifies one token into the fields.
    private static func classify(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ f: inout Fields) {
        guard start < end else { return }
        let first = b[start]
        // Zone offset: +HHMM, -HHMM, +HH:MM, +HH
        if (first == ASCII.plus || first == ASCII.minus), end - start >= 2, ASCII.isDigit(b[start + 1]) {
            if let z = parseOffset(b, start, end) { f.zoneMinutes = z }
            return
        }
        // Alphabetic tokens, possibly with a dash-separated date (15-Jan-2024).
        var hasColon = false
        var dots = 0
        var dashes = 0
        var letters = 0
        var digits = 0
        var k = start
        while k < end {
            let c = b[k]
            if c == ASCII.colon { hasColon = true } else if c == ASCII.dot { dots += 1 } else if c == ASCII.minus { dashes += 1 } else if ASCII.isAlpha(c) { letters += 1 } else if ASCII.isDigit(c) { digits += 1 }
            k += 1
        }
        if hasColon && digits > 0 {
            parseTime(b, start, end, separator: ASCII.colon, &f)
            return
        }
        if dashes > 0 && digits > 0 && letters > 0 {
            // 15-Jan-2024 style: split on dashes.
            var s = start
            var m = start
            while m <= end {
                if m == end || b[m] == ASCII.minus {
                    if m > s { classify(b, s, m, &f) }
                    s = m + 1
                }
                m += 1
            }
            return
        }
        if dots > 0 && digits > 0 && letters == 0 {
            if dots == 2 && f.hour == nil && f.month == nil {
                // dd.mm.yyyy numeric date, or HH.MM.SS time.
                var parts = (0, 0, 0)
                var idx = 0
                var v = 0
                var len = 0
                var m = start
                while m <= end, idx < 3 {
                    if m == end || b[m] == ASCII.dot {
                        if idx == 0 { parts.0 = v } else if idx == 1 { parts.1 = v } else { parts.2 = v }
                        idx += 1
                        if idx == 3 && len == 4 {
                            f.day = parts.0; f.month = parts.1; f.year = parts.2; f.yearDigits = 4
                            return
                        }
                        v = 0
                        len = 0
                    } else if ASCII.isDigit(b[m]), len < 6 {
                        v = v * 10 + Int(b[m] - ASCII.zero)
                        len += 1
                    }
                    m += 1
                }
            }
            if f.hour == nil, f.day != nil || f.month != nil {
                parseTime(b, start, end, separator: ASCII.dot, &f)
            }
            return
        }
        if letters == 0 && digits > 0 {
            let len = end - start
            var v = 0
            var m = start
            while m < end, m - start < 9 {
                if ASCII.isDigit(b[m]) { v = v * 10 + Int(b[m] - ASCII.zero) }
                m += 1
            }
            if len >= 3 {
                if f.year == nil { f.year = v; f.yearDigits = len }
            } else if f.day == nil {
                f.day = v
            } else if f.year == nil {
                f.year = v
                f.yearDigits = len
            }
            return
        }
        if letters > 0 && digits == 0 {
            word(b, start, end, &f)
            return
        }
        if letters > 0 && digits > 0 {
            // GMT+0100 / UTC-5 / 10:00am handled partly; zone name with offset.
            var m = start
            while m < end, ASCII.isAlpha(b[m]) { m += 1 }
            if m < end, b[m] == ASCII.plus || b[m] == ASCII.minus {
                if let z = parseOffset(b, m, end) { f.zoneMinutes = z }
                return
            }
            // 1st, 2nd, 15th...
            var v = 0
            var n = start
            while n < end, ASCII.isDigit(b[n]), n - start < 3 { v = v * 10 + Int(b[n] - ASCII.zero); n += 1 }
            if n > start, f.day == nil, n - start <= 2 {
                f.day = v
            }
        }
    }

    /// Parses `H:M[:S][.frac][zone]` (or with dots).
    private static func parseTime(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, separator: UInt8,
                                  _ f: inout Fields) {
        var parts = (0, 0, 0)
        var count = 0
        var v = 0
        var len = 0
        var k = start
        while k < end {
            let c = b[k]
            if ASCII.isDigit(c) {
                if len < 4 { v = v * 10 + Int(c - ASCII.zero) }
                len += 1
            } else if c == separator && count < 2 {
                if count == 0 { parts.0 = v } else { parts.1 = v }
                count += 1
                v = 0
                len = 0
            } else {
                break
            }
            k += 1
        }
        // The last number (possibly empty, as in "10:20:").
        switch count {
        case 1: parts.1 = v
        case 2: parts.2 = v
        default: return  // no separator: not a time
        }
        f.hour = parts.0
        f.minute = parts.1
        f.second = parts.2
        // Skip fractional seconds, then an attached zone.
        if k < end, b[k] == ASCII.dot || b[k] == ASCII.comma {
            k += 1
            while k < end, ASCII.isDigit(b[k]) { k += 1 }
        }
        if k < end {
            if b[k] == ASCII.plus || b[k] == ASCII.minus {
                if let z = parseOffset(b, k, end) { f.zoneMinutes = z }
            } else if ASCII.isAlpha(b[k]) {
                word(b, k, end, &f)
            }
        }
    }

    /// Parses `+HHMM`, `+HH:MM`, `+HH`, `+H`, `+HMM` into minutes east of UTC.
    private static func parseOffset(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard start < end else { return nil }
        let sign = b[start] == ASCII.minus ? -1 : 1
        var value = 0
        var count = 0
        var k = start + 1
        while k < end, count < 4 {
            let c = b[k]
            if ASCII.isDigit(c) {
                value = value * 10 + Int(c - ASCII.zero)
                count += 1
            } else if c != ASCII.colon {
                break
            }
            k += 1
        }
        let h: Int
        let m: Int
        switch count {
        case 1, 2: h = value; m = 0
        case 3, 4: h = value / 100; m = value % 100
        default: return nil
        }
        guard h <= 23 || (h == 24 && m == 0), m <= 59 else { return nil }
        return sign * (h * 60 + m)
    }

    /// Up to 8 ASCII bytes packed into an integer (for allocation-free
    /// table lookups); nil when longer.
    private static func pack<C: Collection<UInt8>>(_ bytes: C) -> UInt64? {
        guard bytes.count <= 8 else { return nil }
        var k: UInt64 = 0
        for b in bytes { k = k << 8 | UInt64(b) }
        return k
    }

    private static func table(_ pairs: [(String, Int)]) -> [UInt64: Int] {
        var t: [UInt64: Int] = [:]
        for (name, value) in pairs {
            // Keys hold one byte per character (Latin-1 code points).
            if let k = pack(name.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }) { t[k] = value }
        }
        return t
    }

    /// Month name prefixes (English, plus a few German/Dutch/French forms).
    private static let months: [UInt64: Int] = table([
        ("jan", 1), ("feb", 2), ("mar", 3), ("apr", 4), ("may", 5), ("jun", 6), ("jul", 7), ("aug", 8),
        ("sep", 9), ("oct", 10), ("nov", 11), ("dec", 12), ("m\u{E4}r", 3), ("mrz", 3), ("mai", 5),
        ("okt", 10), ("dez", 12), ("mei", 5), ("avr", 4), ("fev", 2), ("f\u{E9}v", 2),
    ])

    /// Named zones in minutes east of UTC. Military letters other than Z are
    /// taken as +0000 as RFC 5322 section 4.3 recommends.
    private static let zones: [UInt64: Int] = {
        var pairs: [(String, Int)] = [
            ("ut", 0), ("utc", 0), ("gmt", 0), ("z", 0), ("wet", 0), ("bst", 60), ("west", 60), ("cet", 60),
            ("met", 60), ("cest", 120), ("mest", 120), ("eet", 120), ("eest", 180), ("msk", 180), ("ist", 330),
            ("hkt", 480), ("sgt", 480), ("awst", 480), ("jst", 540), ("kst", 540), ("aest", 600), ("aedt", 660),
            ("nzst", 720), ("nzdt", 780), ("est", -300), ("edt", -240), ("cst", -360), ("cdt", -300),
            ("mst", -420), ("mdt", -360), ("pst", -480), ("pdt", -420), ("akst", -540), ("akdt", -480),
            ("hst", -600), ("ast", -240), ("adt", -180), ("nst", -210), ("ndt", -150),
        ]
        for c in "abcdefghiklmnopqrstuvwxy" { pairs.append((String(c), 0)) }
        return table(pairs)
    }()

    private static let amKey = pack(Array("am".utf8)) ?? 0
    private static let pmKey = pack(Array("pm".utf8)) ?? 0
    private static let amDotKey = pack(Array("a.m".utf8)) ?? 0
    private static let pmDotKey = pack(Array("p.m".utf8)) ?? 0

    /// Interprets an alphabetic token: month, zone, AM/PM or ignored word.
    private static func word(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ f: inout Fields) {
        var hi = end
        if hi > start, b[hi - 1] == ASCII.dot { hi -= 1 }
        let len = hi - start
        guard len > 0 else { return }
        if len <= 8 {
            var key: UInt64 = 0
            var k = start
            while k < hi { key = key << 8 | UInt64(ASCII.lower(b[k])); k += 1 }
            if key == amKey || key == amDotKey { f.pm = false; return }
            if key == pmKey || key == pmDotKey { f.pm = true; return }
            if let z = zones[key] {
                // A single letter is only a zone once a time was seen.
                if len > 1 || f.hour != nil { f.namedZoneMinutes = z }
                return
            }
        }
        if len >= 3, f.month == nil {
            // Month names: the first three characters (Latin-1 letters are
            // one UTF-8 sequence, e.g. "mär"/"fév").
            var key: UInt64 = 0
            var k = start
            var chars = 0
            while k < hi, chars < 3 {
                let c = b[k]
                if c >= 0xC0, k + 1 < hi {
                    // Decode a 2-byte sequence to its Latin-1 code point.
                    let cp = (UInt64(c & 0x1F) << 6) | UInt64(b[k + 1] & 0x3F)
                    key = key << 8 | (cp < 0x100 ? cp | (cp >= 0xC0 && cp <= 0xDE ? 0x20 : 0) : 0)
                    k += 2
                } else {
                    key = key << 8 | UInt64(ASCII.lower(c))
                    k += 1
                }
                chars += 1
            }
            if let m = months[key] { f.month = m }
        }
    }

    /// Validates the fields and computes the epoch.
    private static func finish(_ f: Fields) -> (epoch: Int64, hasZone: Bool)? {
        guard let day = f.day, let month = f.month, var year = f.year else { return nil }
        if f.yearDigits <= 2 {
            year += year < 50 ? 2000 : 1900
        } else if f.yearDigits == 3 {
            year += 1900
        }
        var hour = f.hour ?? 0
        if let pm = f.pm, hour <= 12 {
            if pm && hour < 12 { hour += 12 }
            if !pm && hour == 12 { hour = 0 }
        }
        guard (1...12).contains(month), (1...31).contains(day), (1000...9999).contains(year),
              hour <= 24, f.minute <= 59, f.second <= 60 else { return nil }
        let zone = f.zoneMinutes ?? f.namedZoneMinutes
        let local = epochSeconds(year: year, month: month, day: day, hour: hour, minute: f.minute, second: f.second)
        return (local - Int64(zone ?? 0) * 60, zone != nil)
    }

    /// `YYYY-MM-DD[(T| )HH:MM[:SS[.fff]]][Z|±HH[:MM]| zone]`.
    private static func parseISO(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> (epoch: Int64, hasZone: Bool)? {
        let n = b.count
        var i = from
        func number(_ maxDigits: Int) -> Int? {
            var v = 0
            var len = 0
            while i < n, len < maxDigits, ASCII.isDigit(b[i]) {
                v = v * 10 + Int(b[i] - ASCII.zero)
                len += 1
                i += 1
            }
            return len > 0 ? v : nil
        }
        guard let year = number(4), i < n, b[i] == ASCII.minus else { return nil }
        i += 1
        guard let month = number(2), i < n, b[i] == ASCII.minus else { return nil }
        i += 1
        guard let day = number(2) else { return nil }
        var f = Fields()
        f.day = day
        f.month = month
        f.year = year
        f.yearDigits = 4
        if i < n, b[i] == 0x54 || b[i] == 0x74 || b[i] == ASCII.space { // T, t or space
            i += 1
            while i < n, b[i] == ASCII.space { i += 1 }
            var j = i
            while j < n, !ASCII.isWhitespace(b[j]) { j += 1 }
            if j > i { parseTime(b, i, j, separator: ASCII.colon, &f) }
            i = j
        }
        // Remaining tokens may carry a zone.
        while i < n {
            if ASCII.isWhitespace(b[i]) { i += 1; continue }
            if b[i] == ASCII.openParen { i = HeaderParameters.skipComment(b, from: i); continue }
            var j = i
            while j < n, !ASCII.isWhitespace(b[j]) { j += 1 }
            if b[i] == ASCII.plus || b[i] == ASCII.minus {
                if let z = parseOffset(b, i, j) { f.zoneMinutes = z }
            } else if ASCII.isAlpha(b[i]) {
                word(b, i, j, &f)
            }
            i = j
        }
        return finish(f)
    }
}
