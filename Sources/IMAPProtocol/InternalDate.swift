/// An IMAP date-time (`"17-Jul-1996 02:44:25 -0700"`), as used by INTERNALDATE and APPEND.
package struct InternalDate: Hashable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    package var epochSeconds: Int64
    /// The zone the date is written in, in minutes east of UTC (-0700 is -420).
    package var timeZoneOffsetMinutes: Int

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The earliest instant any date-time text can name (0000-01-01T00:00:00 at +99:59).
    static let minEpochSeconds: Int64 = -62_167_219_200 - 6000 * 60
    /// The latest instant any date-time text can name (9999-12-31T23:59:60 at -99:59).
    static let maxEpochSeconds: Int64 = 253_402_300_800 + 6000 * 60

    /// The instant `epochSeconds`, written in the zone `timeZoneOffsetMinutes` east of UTC.
    /// The instant is clamped to the span four-digit years can name and the offset to
    /// ±99:59, the widest the syntax can write.
    package init(epochSeconds: Int64, timeZoneOffsetMinutes: Int = 0) {
        self.epochSeconds = Swift.min(Swift.max(epochSeconds, InternalDate.minEpochSeconds), InternalDate.maxEpochSeconds)
        self.timeZoneOffsetMinutes = Swift.min(Swift.max(timeZoneOffsetMinutes, -5999), 5999)
    }

    /// The date-time `text` spells (`dd-Mon-yyyy hh:mm:ss +zzzz`, day optionally
    /// space-padded or one digit), or nil when it is not one.
    package init?(parsing text: String) { self.init(parsing: Array(text.utf8)) }

    /// The date-time `bytes` spell, or nil when they are not one.
    package init?(parsing bytes: [UInt8]) {
        var i = 0
        while i < bytes.count, bytes[i] == IMAPByte.space { i += 1 }
        func number(_ minDigits: Int, _ maxDigits: Int) -> Int? {
            var value = 0
            var n = 0
            while i < bytes.count, n < maxDigits, IMAPByte.isDigit(bytes[i]) {
                value = value * 10 + Int(bytes[i] - IMAPByte.zero)
                i += 1
                n += 1
            }
            return n >= minDigits ? value : nil
        }
        func expect(_ b: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == b else { return false }
            i += 1
            return true
        }
        guard let day = number(1, 2), expect(IMAPByte.minus), i + 3 <= bytes.count else { return nil }
        let monthBytes = bytes[i..<(i + 3)]
        guard let monthIndex = InternalDate.months.firstIndex(where: { IMAPByte.equalsIgnoringCase(monthBytes, $0) }) else {
            return nil
        }
        i += 3
        guard expect(IMAPByte.minus), let year = number(4, 4), expect(IMAPByte.space),
              let hour = number(2, 2), expect(IMAPByte.colon), let minute = number(2, 2),
              expect(IMAPByte.colon), let second = number(2, 2), expect(IMAPByte.space),
              i < bytes.count, bytes[i] == IMAPByte.plus || bytes[i] == IMAPByte.minus
        else { return nil }
        let negative = bytes[i] == IMAPByte.minus
        i += 1
        guard let zone = number(4, 4), i == bytes.count else { return nil }
        let month = monthIndex + 1
        guard day >= 1, day <= InternalDate.daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59, second <= 60, zone % 100 <= 59
        else { return nil }
        let offset = (zone / 100 * 60 + zone % 100) * (negative ? -1 : 1)
        let days = InternalDate.daysFromCivil(year: year, month: month, day: day)
        let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(epochSeconds: local - Int64(offset) * 60, timeZoneOffsetMinutes: offset)
    }

    /// The date-time as IMAP writes it, e.g. `17-Jul-1996 02:44:25 -0700` (without quotes).
    package var description: String {
        let local = epochSeconds + Int64(timeZoneOffsetMinutes) * 60
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondsOfDay = Int(local - days * 86_400)
        let (year, month, day) = InternalDate.civilFromDays(days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        func four(_ v: Int64) -> String {
            let s = String(v)
            return v >= 0 && s.count < 4 ? String(repeating: "0", count: 4 - s.count) + s : s
        }
        let zone = abs(timeZoneOffsetMinutes)
        let sign = timeZoneOffsetMinutes < 0 ? "-" : "+"
        return "\(two(day))-\(InternalDate.months[month - 1])-\(four(year)) "
            + "\(two(secondsOfDay / 3600)):\(two(secondsOfDay % 3600 / 60)):\(two(secondsOfDay % 60)) "
            + "\(sign)\(two(zone / 60))\(two(zone % 60))"
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
