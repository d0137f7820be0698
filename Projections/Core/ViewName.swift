/// The views, by name: a closed set, so a command or API that takes a view cannot be handed one that
/// does not exist, and a `switch` over it must cover every view. Raw values are the projectors' `name`s
/// (the names stored in the views' metadata and used by `mailstore project --view` and `replay --view`).
public enum ViewName: String, CaseIterable, Sendable {
    case threads
    case unread
    case folders
    case outbox
    case dedup
    case accounts
    case sync
    case actions
    case drafts
    case contacts
}
