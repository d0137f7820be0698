import EventModel

/// What a user action or a compensation does to one email copy in the views: a new folder, flags added or
/// removed, or (for a revert) the whole flag set restored. Pure: derived from the event alone, so every view
/// applies the same change.
package struct CopyChange: Equatable, Sendable {
    package var emailID: String
    /// The folder the copy now shows in.
    package var folder: String?
    /// Flags added.
    package var add: [String] = []
    /// Flags removed.
    package var remove: [String] = []
    /// The whole flag set, for a revert (applied before `add` and `remove`).
    package var flags: [String]?

    package init(emailID: String, folder: String? = nil, add: [String] = [], remove: [String] = [], flags: [String]? = nil) {
        self.emailID = emailID
        self.folder = folder
        self.add = add
        self.remove = remove
        self.flags = flags
    }

    /// The flags after this change.
    package func applied(to current: [String]) -> [String] {
        // A move: the flags as they were, once sorted and unique (as the set below leaves them).
        if flags == nil && add.isEmpty && remove.isEmpty && zip(current, current.dropFirst()).allSatisfy({ $0 < $1 }) {
            return current
        }
        var set = Set(flags ?? current)
        set.formUnion(add)
        set.subtract(remove)
        return set.sorted()
    }

    /// How many copies `event` changes (`changes(of:)`'s count, without making them).
    package static func count(of event: DomainEvent) -> Int {
        switch event {
        case .threadMarkedRead(let p), .threadMarkedUnread(let p), .threadStarred(let p), .threadUnstarred(let p):
            p.targets.count
        case .threadArchived(let p), .threadDeleted(let p), .threadMoved(let p): p.destination == nil ? 0 : p.targets.count
        case .flagRejected(let p): p.emailIDs.count
        case .actionReverted(let p): p.targets.count
        default: 0
        }
    }

    /// The types of the events `changes(of:)` gives changes for.
    package static let eventTypes: [EventType] = [.threadMarkedRead, .threadMarkedUnread, .threadStarred, .threadUnstarred,
                                                  .threadArchived, .threadDeleted, .threadMoved, .flagRejected, .actionReverted]

    /// The copy changes an event makes optimistically (actions) or as compensation (`FlagRejected`,
    /// `ActionReverted`); nil for every other event.
    package static func changes(of event: DomainEvent) -> [CopyChange]? {
        switch event {
        case .threadMarkedRead(let p): p.targets.map { CopyChange(emailID: $0.emailID, add: ["\\Seen"]) }
        case .threadMarkedUnread(let p): p.targets.map { CopyChange(emailID: $0.emailID, remove: ["\\Seen"]) }
        case .threadStarred(let p): p.targets.map { CopyChange(emailID: $0.emailID, add: ["\\Flagged"]) }
        case .threadUnstarred(let p): p.targets.map { CopyChange(emailID: $0.emailID, remove: ["\\Flagged"]) }
        case .threadArchived(let p), .threadDeleted(let p), .threadMoved(let p):
            p.destination.map { d in p.targets.map { CopyChange(emailID: $0.emailID, folder: d) } } ?? []
        case .flagRejected(let p):
            p.emailIDs.map { p.wasSet ? CopyChange(emailID: $0, remove: [p.flag]) : CopyChange(emailID: $0, add: [p.flag]) }
        case .actionReverted(let p): p.targets.map { CopyChange(emailID: $0.emailID, folder: $0.folder, flags: $0.flags) }
        default: nil
        }
    }
}
