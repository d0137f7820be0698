/// The name of a view: one per projector.
public enum ViewName: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case threads, unread, folders, outbox, dedup, accounts, sync, actions, drafts, contacts, notifications

    public var description: String { rawValue }
}
