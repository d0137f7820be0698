/// A notification preference changed (`mailstore notifications settings`, `vip`, `mute`). The account is
/// the envelope's: account on/off applies to it; categories, quiet hours, VIPs and mutes are store-wide
/// (written with an empty account).
public struct NotificationPreferenceChanged: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// Which preference.
    public var change: NotificationPreference
    /// The category name, VIP address (lowercased) or thread id; empty for the others.
    public var value: String
    /// Quiet hours' start, minutes after local midnight (0..<1440); 0 unless `quietHoursSet`.
    public var quietStart: UInt32
    /// Quiet hours' end, minutes after local midnight (0..<1440); 0 unless `quietHoursSet`.
    public var quietEnd: UInt32

    /// Creates the payload.
    public init(change: NotificationPreference, value: String = "", quietStart: UInt32 = 0, quietEnd: UInt32 = 0) {
        self.change = change
        self.value = value
        self.quietStart = quietStart
        self.quietEnd = quietEnd
    }

    package func encode(to w: inout ByteWriter) {
        w.write(change)
        w.write(value)
        w.write(quietStart)
        w.write(quietEnd)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        change = try r.read()
        value = try r.read()
        quietStart = try r.read()
        quietEnd = try r.read()
    }
}
