import EventModel

/// A draft as the drafts view keeps it: its latest saved version.
public struct DraftRecord: BinaryField, Equatable, Sendable {
    public var account: String
    /// The latest `DraftSaved`.
    public var latest: DraftSaved
    /// When it was last saved.
    public var savedAt: Timestamp

    public init(account: String, latest: DraftSaved, savedAt: Timestamp) {
        self.account = account
        self.latest = latest
        self.savedAt = savedAt
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(account)
        w.write(UInt32(DraftSaved.schemaVersion))
        latest.encode(to: &w)
        w.write(savedAt)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        account = try r.read()
        let version: UInt32 = try r.read()
        latest = try DraftSaved(from: &r, version: UInt16(truncatingIfNeeded: version))
        savedAt = try r.read()
    }
}
