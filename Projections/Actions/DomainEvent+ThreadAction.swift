import EventModel

extension DomainEvent {
    /// The payload of a thread action event (any kind), or nil.
    package var threadAction: ThreadAction? {
        switch self {
        case .threadArchived(let p), .threadDeleted(let p), .threadMarkedRead(let p), .threadMarkedUnread(let p),
             .threadStarred(let p), .threadUnstarred(let p), .threadMoved(let p):
            p
        default: nil
        }
    }
}
