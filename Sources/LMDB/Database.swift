import CLMDB

/// A handle to a named database inside an environment. Valid for the environment's lifetime.
public struct Database: Sendable, Hashable {
    /// LMDB's handle.
    public let dbi: MDB_dbi
    /// The database's name (for error messages).
    public let name: String

    /// Flags for opening a database.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Create it if it does not exist.
        public static let create = Flags(rawValue: UInt32(MDB_CREATE))
        /// Keys may have several sorted values.
        public static let dupSort = Flags(rawValue: UInt32(MDB_DUPSORT))
        /// With `dupSort`: all values have the same size.
        public static let dupFixed = Flags(rawValue: UInt32(MDB_DUPFIXED))
    }
}

/// Counts of a database's B-tree.
public struct DatabaseStat: Sendable, Equatable {
    /// Number of entries.
    public var entries: Int
    /// Tree depth.
    public var depth: Int
    /// Branch, leaf and overflow pages.
    public var branchPages: Int, leafPages: Int, overflowPages: Int
    /// Page size in bytes.
    public var pageSize: Int

    /// Bytes used by all pages.
    public var bytes: Int { (branchPages + leafPages + overflowPages) * pageSize }
}
