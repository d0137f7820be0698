import EventModel

/// A folder of the navigation list, with its badge.
public struct FolderSummary: Sendable, Equatable, Encodable {
    /// The folder's path (its id).
    public var id: String
    /// The account.
    public var accountId: String
    /// The name shown.
    public var name: String
    /// Its role.
    public var role: FolderRole
    /// Unread messages for Inbox and Spam, messages for Drafts, nil for the others (shown as "—").
    public var badge: Int?
    /// True for a folder with no server folder behind it (the virtual Starred folder of an account without one).
    public var isVirtual = false
    /// How many listed folders are above it: 0 at the top, 1 for a subfolder of one at the top (the list gives each
    /// folder's subfolders right after it).
    public var depth = 0
    /// False for a name that holds no mail, listed only above its subfolders (a parent the server says does not exist:
    /// another client deleted it while it had children; `FolderEntry.selectable`).
    public var selectable = true

    enum CodingKeys: String, CodingKey { case id, accountId, name, role, badge, isVirtual = "virtual", depth, selectable }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(accountId, forKey: .accountId)
        try c.encode(name, forKey: .name)
        try c.encode(role, forKey: .role)
        try c.encode(badge, forKey: .badge)
        try c.encode(isVirtual, forKey: .isVirtual)
        try c.encode(depth, forKey: .depth)
        try c.encode(selectable, forKey: .selectable)
    }
}
