import CLMDB

/// Flags for `Transaction.put`.
@usableFromInline package struct PutFlags: OptionSet, Sendable {
    @usableFromInline package let rawValue: UInt32
    @usableFromInline package init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Fail with `false` instead of overwriting an existing key.
    @usableFromInline package static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// The key sorts after every existing key (fast path; `MDB_KEYEXIST` otherwise).
    @usableFromInline package static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
    /// With dupSort: the value sorts after the key's existing values.
    @usableFromInline package static let appendDup = PutFlags(rawValue: UInt32(MDB_APPENDDUP))
    /// With dupSort: do nothing if the key/value pair exists.
    @usableFromInline package static let noDupData = PutFlags(rawValue: UInt32(MDB_NODUPDATA))
}
