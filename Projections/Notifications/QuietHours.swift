import EventModel

/// A daily quiet period in local time, as minutes after midnight; `start > end` is an overnight range
/// (22:00-07:00 holds 23:30 and 06:59, not 07:00).
public struct QuietHours: BinaryField, Equatable, Sendable {
    /// Minutes in a day: every minute value is below it.
    public static let minutesPerDay: UInt32 = 1440
    /// The preset offered when quiet hours are first turned on: 22:00-07:00.
    public static let preset = QuietHours(start: 22 * 60, end: 7 * 60)!

    /// First quiet minute.
    public let start: UInt32
    /// First minute no longer quiet.
    public let end: UInt32

    /// A range, or nil when a bound is not a minute of the day.
    public init?(start: UInt32, end: UInt32) {
        guard start < QuietHours.minutesPerDay, end < QuietHours.minutesPerDay else { return nil }
        self.start = start
        self.end = end
    }

    /// Parses `HH:MM-HH:MM`; nil when malformed.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let s = QuietHours.minute(parts[0]), let e = QuietHours.minute(parts[1]) else { return nil }
        self.init(start: s, end: e)
    }

    /// True when `minute` (after local midnight) is quiet. Equal bounds are an empty range.
    public func contains(minute: UInt32) -> Bool {
        start <= end ? (minute >= start && minute < end) : (minute >= start || minute < end)
    }

    /// `HH:MM-HH:MM`.
    public var text: String { "\(QuietHours.clock(start))-\(QuietHours.clock(end))" }

    static func clock(_ m: UInt32) -> String {
        let h = m / 60, mm = m % 60
        return (h < 10 ? "0" : "") + "\(h):" + (mm < 10 ? "0" : "") + "\(mm)"
    }

    static func minute(_ s: Substring) -> UInt32? {
        let hm = s.split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = UInt32(hm[0]), let m = UInt32(hm[1]), h < 24, m < 60 else { return nil }
        return h * 60 + m
    }

    @usableFromInline package func write(to w: inout ByteWriter) { w.write(start); w.write(end) }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        let s: UInt32 = try r.read(), e: UInt32 = try r.read()
        guard let q = QuietHours(start: s, end: e) else { throw DecodeError.malformed("quiet hours \(s)-\(e)", at: r.offset) }
        self = q
    }
}
