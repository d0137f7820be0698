/// The name of a view: one per projector, and `search` (the full-text index, an SQLite view of its own).
public enum ViewName: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case threads, unread, folders, outbox, dedup, accounts, sync, actions, drafts, contacts, notifications, search

    /// The views folded by projectors into the LMDB views environment.
    public static var projected: [ViewName] { allCases.filter { $0 != .search } }

    public var description: String { rawValue }
}
