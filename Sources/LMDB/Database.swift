import CLMDB

/// A handle to a named database inside an environment. Valid for the environment's lifetime.
@usableFromInline package struct Database: Sendable, Hashable {
    /// LMDB's handle.
    @usableFromInline package let dbi: MDB_dbi
    /// The database's name (for error messages).
    @usableFromInline package let name: String

    /// Flags for opening a database.
    @usableFromInline package struct Flags: OptionSet, Sendable {
        @usableFromInline package let rawValue: UInt32
        @usableFromInline package init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Create it if it does not exist.
        @usableFromInline package static let create = Flags(rawValue: UInt32(MDB_CREATE))
        /// Keys may have several sorted values.
        @usableFromInline package static let dupSort = Flags(rawValue: UInt32(MDB_DUPSORT))
        /// With `dupSort`: all values have the same size.
        @usableFromInline package static let dupFixed = Flags(rawValue: UInt32(MDB_DUPFIXED))
    }
}

/// Counts of a database's B-tree.
@usableFromInline package struct DatabaseStat: Sendable, Equatable {
    /// Number of entries.
    @usableFromInline package var entries: Int
    /// Tree depth.
    @usableFromInline package var depth: Int
    /// Branch, leaf and overflow pages.
    @usableFromInline package var branchPages: Int, leafPages: Int, overflowPages: Int
    /// Page size in bytes.
    @usableFromInline package var pageSize: Int

    /// Bytes used by all pages.
    @usableFromInline package var bytes: Int { (branchPages + leafPages + overflowPages) * pageSize }
}
