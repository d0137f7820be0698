import Foundation

/// A point in time as whole microseconds since 1970-01-01T00:00:00Z.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the Unix epoch (negative before it).
    public var microseconds: Int64

    /// Creates a timestamp from microseconds since the Unix epoch.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// Creates a timestamp from a `Date`, rounded to the microsecond.
    public init(_ date: Date) {
        let us = (date.timeIntervalSince1970 * 1_000_000).rounded()
        microseconds = us.isFinite ? Int64(max(min(us, 9.2e18), -9.2e18)) : 0
    }

    /// The current wall-clock time.
    public static var now: Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }

    /// The same instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(microseconds) / 1_000_000) }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    /// ISO 8601 in UTC with milliseconds, e.g. `2024-01-15T09:30:00.123Z`.
    public var description: String { iso8601 }

    /// ISO 8601 in UTC with milliseconds.
    public var iso8601: String {
        let totalMs = microseconds >= 0 ? microseconds / 1000 : (microseconds - 999) / 1000
        var days = totalMs >= 0 ? totalMs / 86_400_000 : (totalMs - 86_399_999) / 86_400_000
        let msOfDay = totalMs - days * 86_400_000
        // civil-from-days (Howard Hinnant's algorithm)
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        var y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        if m <= 2 { y += 1 }
        func pad(_ v: Int64, _ w: Int) -> String {
            let s = String(v)
            return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
        }
        let h = msOfDay / 3_600_000, mi = msOfDay / 60_000 % 60, s = msOfDay / 1000 % 60, ms = msOfDay % 1000
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2)).\(pad(ms, 3))Z"
    }
}

extension Timestamp: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) { writer.writeSignedVarint(microseconds) }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) {
        self.init(microseconds: try reader.readSignedVarint())
    }
}
