import EventModel

/// An account as the accounts view keeps it: its `AccountAdded` settings (which never hold a secret).
public struct AccountRecord: BinaryField, Equatable, Sendable {
    /// The settings.
    public var settings: AccountAdded
    /// The log sequence of the `AccountAdded`.
    public var sequence: UInt64

    public init(settings: AccountAdded, sequence: UInt64) {
        self.settings = settings
        self.sequence = sequence
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(UInt32(AccountAdded.schemaVersion))
        settings.encode(to: &w)
        w.write(sequence)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        let version: UInt32 = try r.read()
        settings = try AccountAdded(from: &r, version: UInt16(truncatingIfNeeded: version))
        sequence = try r.read()
    }
}
