/// An account was removed; its facts stay in the log.
public struct AccountRemoved: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The account's local name.
    public var name: String

    /// Creates the payload.
    public init(name: String) {
        self.name = name
    }

    package func encode(to w: inout ByteWriter) {
        w.write(name)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        name = try r.read()
    }
}
