import EventModel

/// A folder whose role a sync's listing changed (recorded with its `FolderDiscovered`): the mapping found another
/// role for it than the one recorded. A nested folder whose role an older build guessed from its name (`Work/Sent` as
/// the Sent folder) becomes an ordinary folder so at its next sync (since 2026-12-07 a name gives a role only at the top
/// level or directly under INBOX); a server that adds or removes a SPECIAL-USE attribute moves a role too. Said in the
/// sync's summary and JSON: where deleted mail goes, where sent mail is filed and which folder's mail the Drafts and Spam
/// badges count follow the role.
public struct FolderRoleChange: Sendable, Equatable, Encodable {
    /// The folder path.
    public var folder: String
    /// The role recorded before.
    public var from: FolderRole
    /// The role recorded now.
    public var to: FolderRole

    public init(folder: String, from: FolderRole, to: FolderRole) {
        self.folder = folder
        self.from = from
        self.to = to
    }
}
