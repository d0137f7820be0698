/// The server changed a folder's UIDVALIDITY: its old UIDs are retired.
public struct UIDValidityChanged: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The folder's full path.
    public var folder: String
    /// The UIDVALIDITY the store knew.
    public var oldValue: UInt32
    /// The new UIDVALIDITY.
    public var newValue: UInt32

    /// Creates the payload.
    public init(folder: String, oldValue: UInt32, newValue: UInt32) {
        self.folder = folder
        self.oldValue = oldValue
        self.newValue = newValue
    }

    package func encode(to w: inout ByteWriter) {
        w.write(folder)
        w.write(oldValue)
        w.write(newValue)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        folder = try r.read()
        oldValue = try r.read()
        newValue = try r.read()
    }
}
