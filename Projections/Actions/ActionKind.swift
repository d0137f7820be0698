import EventModel

/// The kinds of thread action a user takes.
public enum ActionKind: String, Sendable, CaseIterable, Codable {
    case archive, delete, read, unread, star, unstar, move

    /// The kind of an action event, or nil for any other event.
    public init?(_ event: DomainEvent) {
        switch event {
        case .threadArchived: self = .archive
        case .threadDeleted: self = .delete
        case .threadMarkedRead: self = .read
        case .threadMarkedUnread: self = .unread
        case .threadStarred: self = .star
        case .threadUnstarred: self = .unstar
        case .threadMoved: self = .move
        default: return nil
        }
    }

    /// The action event of this kind.
    public func event(_ payload: ThreadAction) -> DomainEvent {
        switch self {
        case .archive: .threadArchived(payload)
        case .delete: .threadDeleted(payload)
        case .read: .threadMarkedRead(payload)
        case .unread: .threadMarkedUnread(payload)
        case .star: .threadStarred(payload)
        case .unstar: .threadUnstarred(payload)
        case .move: .threadMoved(payload)
        }
    }

    /// The flag a flag action sets or clears, and whether it sets it.
    public var flag: (name: String, set: Bool)? {
        switch self {
        case .read: ("\\Seen", true)
        case .unread: ("\\Seen", false)
        case .star: ("\\Flagged", true)
        case .unstar: ("\\Flagged", false)
        default: nil
        }
    }

    /// True for actions that move copies to another folder.
    public var moves: Bool { flag == nil }

    /// The flag action that undoes this one (moves are undone by a move back).
    public var inverse: ActionKind {
        switch self {
        case .read: .unread
        case .unread: .read
        case .star: .unstar
        case .unstar: .star
        default: .move
        }
    }
}
