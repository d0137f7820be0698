/// Sync progress of a folder, appended in the same batch as the events it covers so a crash resumes exactly there.
public struct FolderSyncCheckpointed: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 3

    /// The folder's full path.
    public var folder: String
    /// UIDVALIDITY the state belongs to.
    public var uidValidity: UInt32
    /// The highest UID whose message is in the log.
    public var highestUID: UInt32
    /// UIDNEXT at the time.
    public var uidNext: UInt32?
    /// HIGHESTMODSEQ covered (CONDSTORE).
    public var highestModSeq: UInt64?
    /// The lowest UID fetched so far by a newest-first initial sync; nil once complete.
    public var lowestUIDFetched: UInt32?
    /// UIDs (under `uidValidity`) the server failed to deliver whole, each alone, twice in a sync (a literal shorter
    /// than it stated, then silence): not fetched again while this UIDVALIDITY holds until their retry is due
    /// (schema 2; empty in version 1).
    public var unfetchable: [UInt32]
    /// When each of `unfetchable` was last given up, in its order (schema 3; empty in older versions: the event's own
    /// time is taken).
    public var givenUpAt: [Timestamp]
    /// How many times in a row each of `unfetchable` was given up, in its order (schema 3; empty in older versions: once).
    public var givenUpTimes: [UInt32]

    /// Creates the payload.
    public init(folder: String, uidValidity: UInt32, highestUID: UInt32, uidNext: UInt32? = nil, highestModSeq: UInt64? = nil,
                lowestUIDFetched: UInt32? = nil, unfetchable: [UInt32] = [], givenUpAt: [Timestamp] = [],
                givenUpTimes: [UInt32] = []) {
        self.folder = folder
        self.uidValidity = uidValidity
        self.highestUID = highestUID
        self.uidNext = uidNext
        self.highestModSeq = highestModSeq
        self.lowestUIDFetched = lowestUIDFetched
        self.unfetchable = unfetchable
        self.givenUpAt = givenUpAt
        self.givenUpTimes = givenUpTimes
    }

    package func encode(to w: inout ByteWriter) {
        w.write(folder)
        w.write(uidValidity)
        w.write(highestUID)
        w.write(uidNext)
        w.write(highestModSeq)
        w.write(lowestUIDFetched)
        w.write(unfetchable)
        w.write(givenUpAt)
        w.write(givenUpTimes)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        folder = try r.read()
        uidValidity = try r.read()
        highestUID = try r.read()
        uidNext = try r.read()
        highestModSeq = try r.read()
        lowestUIDFetched = try r.read()
        unfetchable = version >= 2 ? try r.read() : []
        givenUpAt = version >= 3 ? try r.read() : []
        givenUpTimes = version >= 3 ? try r.read() : []
    }
}
