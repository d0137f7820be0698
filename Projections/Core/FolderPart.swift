/// The folder part of a view key: a folder's path, or one of the views' own rows beside the folders (an account's
/// whole-account counters, the badge, the virtual Starred folder's listing).
///
/// The views' own rows are written in a form no path takes (`Key.folder(_:)`): a part that starts with byte 0xFF,
/// which UTF-8 never holds. IMAP allows `#` and `\` in names (Dovecot creates `#account`, `#badge` and `\Starred`), so
/// a name of ours spelt like a path (as `#account` was until 2026-12-07) merged a server folder of that name with the
/// account's total, the badge or the Starred listing.
package enum FolderPart: Hashable, Sendable {
    /// A folder, by its path (whatever it holds).
    case path(String)
    /// The account's counters over all of its folders (each message once).
    case wholeAccount
    /// The badge's counters: unread mail in Inbox-role folders only.
    case badge
    /// The listing of the virtual Starred folder (every thread with a flagged copy, once).
    case virtualStarred

    /// The name of one of the views' own parts (written after the 0xFF lead); empty for a path (never written).
    var ownName: StaticString {
        switch self {
        case .path: ""
        case .wholeAccount: "account"
        case .badge: "badge"
        case .virtualStarred: "starred"
        }
    }
}
