import EventModel

/// A folder as the folders view keeps it.
public struct FolderEntry: BinaryField, Equatable, Sendable {
    public var account: String
    public var path: String
    public var displayName: String
    public var role: FolderRole

    public init(account: String, path: String, displayName: String, role: FolderRole) {
        self.account = account
        self.path = path
        self.displayName = displayName
        self.role = role
    }

    @usableFromInline package func write(to w: inout ByteWriter) { w.write(account); w.write(path); w.write(displayName); w.write(role) }
    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        account = try r.read(); path = try r.read(); displayName = try r.read(); role = try r.read()
    }
}
