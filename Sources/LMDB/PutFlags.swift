import CLMDB

/// Flags for `Transaction.put`.
public struct PutFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Fail with `false` instead of overwriting an existing key.
    public static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// The key sorts after every existing key (fast path; `MDB_KEYEXIST` otherwise).
    public static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
    /// With dupSort: the value sorts after the key's existing values.
    public static let appendDup = PutFlags(rawValue: UInt32(MDB_APPENDDUP))
    /// With dupSort: do nothing if the key/value pair exists.
    public static let noDupData = PutFlags(rawValue: UInt32(MDB_NODUPDATA))
}
