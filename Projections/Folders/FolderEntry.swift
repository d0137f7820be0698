import EventModel

/// A folder as the folders view keeps it.
public struct FolderEntry: BinaryField, Equatable, Sendable {
    public var account: String
    public var path: String
    public var displayName: String
    public var role: FolderRole
    /// False for a name the server lists whose mailbox does not exist (recorded with the `\NonExistent` attribute: a
    /// parent another client deleted while it has children, which Dovecot goes on listing) or that is `\Noselect`:
    /// it holds no mail and is listed only above its subfolders (folders view schema 4).
    public var selectable: Bool

    public init(account: String, path: String, displayName: String, role: FolderRole, selectable: Bool = true) {
        self.account = account
        self.path = path
        self.displayName = displayName
        self.role = role
        self.selectable = selectable
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(account); w.write(path); w.write(displayName); w.write(role); w.write(selectable)
    }
    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        account = try r.read(); path = try r.read(); displayName = try r.read(); role = try r.read(); selectable = try r.read()
    }
}
