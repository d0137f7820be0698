import EventModel

/// Where a folder's sync stands: the last `FolderSyncCheckpointed`, written with the events it covers.
public struct FolderSyncState: BinaryField, Equatable, Sendable {
    /// The UIDVALIDITY the known UIDs belong to.
    public var uidValidity: UInt32
    /// Every server UID from `lowestUIDFetched` (or 1 once complete) up to this one is known.
    public var highestUID: UInt32
    /// The server's UIDNEXT when checkpointed.
    public var uidNext: UInt32?
    /// Flag changes up to this mod-sequence are recorded (CONDSTORE).
    public var highestModSeq: UInt64?
    /// During the first (newest-first) pass: the lowest UID fetched so far; nil once the pass is complete.
    public var lowestUIDFetched: UInt32?
    /// The messages the server failed to deliver whole (``FolderSyncCheckpointed/unfetchable``), with when they were
    /// given up: not fetched again under this UIDVALIDITY until their retry is due (``UnfetchableMessage/retryAt``).
    public var givenUp: [UnfetchableMessage]

    public init(uidValidity: UInt32, highestUID: UInt32, uidNext: UInt32?, highestModSeq: UInt64?, lowestUIDFetched: UInt32?,
                givenUp: [UnfetchableMessage] = []) {
        self.uidValidity = uidValidity
        self.highestUID = highestUID
        self.uidNext = uidNext
        self.highestModSeq = highestModSeq
        self.lowestUIDFetched = lowestUIDFetched
        self.givenUp = givenUp
    }

    /// The state a checkpoint event records, `recordedAt` the event's own time: a UID given up without its time (a
    /// checkpoint of schema 2, before 2026-12-07) is taken as given up once, then.
    public init(_ p: FolderSyncCheckpointed, recordedAt: Timestamp) {
        let givenUp = p.unfetchable.indices.map { i in
            UnfetchableMessage(uid: p.unfetchable[i], givenUpAt: i < p.givenUpAt.count ? p.givenUpAt[i] : recordedAt,
                               times: i < p.givenUpTimes.count ? p.givenUpTimes[i] : 1)
        }
        self.init(uidValidity: p.uidValidity, highestUID: p.highestUID, uidNext: p.uidNext, highestModSeq: p.highestModSeq,
                  lowestUIDFetched: p.lowestUIDFetched, givenUp: givenUp)
    }

    /// The UIDs given up as unfetchable (``givenUp``).
    public var unfetchable: [UInt32] { givenUp.map(\.uid) }

    /// Whether the first pass over the folder has finished.
    public var isComplete: Bool { lowestUIDFetched == nil }

    /// The ``lowestUIDFetched`` of a pass about to fetch `newest` (the highest UID it has to fetch) and those below it:
    /// one above it, which says only that the pass is not complete yet. Saturated: a hostile UID 4294967295 had wrapped
    /// it to 0.
    public static func fetchMark(above newest: UInt32) -> UInt32 {
        newest == .max ? .max : newest + 1
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(uidValidity); w.write(highestUID); w.write(uidNext); w.write(highestModSeq); w.write(lowestUIDFetched); w.write(givenUp)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        uidValidity = try r.read(); highestUID = try r.read(); uidNext = try r.read(); highestModSeq = try r.read()
        lowestUIDFetched = try r.read(); givenUp = try r.read()
    }
}
