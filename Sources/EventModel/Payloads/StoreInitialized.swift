/// The store was created. The first event of every log.
public struct StoreInitialized: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The store format version written.
    public var formatVersion: UInt32
    /// The program and version that created the store.
    public var createdBy: String

    /// Creates the payload.
    public init(formatVersion: UInt32, createdBy: String) {
        self.formatVersion = formatVersion
        self.createdBy = createdBy
    }

    package func encode(to w: inout ByteWriter) {
        w.write(formatVersion)
        w.write(createdBy)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        formatVersion = try r.read()
        createdBy = try r.read()
    }
}
