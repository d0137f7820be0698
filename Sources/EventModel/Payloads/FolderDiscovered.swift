/// A folder (mailbox) exists on the server or in an imported source.
public struct FolderDiscovered: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The folder's full path as the source names it (e.g. `INBOX`, `Lists/swift`).
    public var folder: String
    /// The name shown to people.
    public var displayName: String
    /// Its role: inbox, sent, drafts, ... or custom.
    public var role: FolderRole
    /// The hierarchy delimiter.
    public var delimiter: String?
    /// The server's LIST attributes (e.g. `\Sent`, `\HasNoChildren`).
    public var attributes: [String]
    /// UIDVALIDITY when known.
    public var uidValidity: UInt32?

    /// Creates the payload.
    public init(folder: String, displayName: String, role: FolderRole, delimiter: String? = nil, attributes: [String] = [], uidValidity: UInt32? = nil) {
        self.folder = folder
        self.displayName = displayName
        self.role = role
        self.delimiter = delimiter
        self.attributes = attributes
        self.uidValidity = uidValidity
    }

    package func encode(to w: inout ByteWriter) {
        w.write(folder)
        w.write(displayName)
        w.write(role)
        w.write(delimiter)
        w.write(attributes)
        w.write(uidValidity)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        folder = try r.read()
        displayName = try r.read()
        role = try r.read()
        delimiter = try r.read()
        attributes = try r.read()
        uidValidity = try r.read()
    }
}
