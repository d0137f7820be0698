/// A folder no longer exists at the source.
public struct FolderRemoved: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The folder's full path.
    public var folder: String

    /// Creates the payload.
    public init(folder: String) {
        self.folder = folder
    }

    package func encode(to w: inout ByteWriter) {
        w.write(folder)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        folder = try r.read()
    }
}
