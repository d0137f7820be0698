import EventModel

/// What one append added to the log, counted as `EventLog.stats` counts it (`LogTally`), from the records and blobs
/// the write transaction put: so a process that appends keeps the stats cache current without walking what it
/// wrote again (`EventLog.keepsTally`). Made afresh by each run of the transaction (a run again after the map grew
/// counts again), and added to the tally only once the transaction committed.
struct TallyDelta {
    /// The log's last sequence and last blob number when the transaction began: the delta adds to a tally that
    /// ends exactly there, and to no other (another process appended meanwhile: the tally is no longer kept).
    var headBefore: UInt64
    var lastBlobBefore: UInt64
    /// The last sequence appended and its chain hash (nil: no event appended).
    var end: (sequence: UInt64, hash: [UInt8])?
    var events: UInt64 = 0
    var recordBytes: UInt64 = 0
    var payloadBytes: UInt64 = 0
    var storedPayloadBytes: UInt64 = 0
    /// Per event type: its code, count, record bytes and payload bytes (a batch holds few types: a list searched
    /// from its end, where the last record's type usually is).
    var types: [(code: UInt16, count: UInt64, stored: UInt64, payload: UInt64)] = []
    var blobs: UInt64 = 0
    var blobStoredBytes: UInt64 = 0
    var blobRawBytes: UInt64 = 0
    var lastBlob: UInt64

    init(headBefore: UInt64, lastBlobBefore: UInt64) {
        self.headBefore = headBefore
        self.lastBlobBefore = lastBlobBefore
        lastBlob = lastBlobBefore
    }

    /// Counts an appended record (as `stats` does: a record whose header does not read counts as an event and its
    /// bytes only).
    mutating func add(record: UnsafeRawBufferPointer) {
        events += 1
        recordBytes += UInt64(record.count)
        guard let type = RecordCodec.peekType(record), let payload = RecordCodec.peekPayload(record) else { return }
        payloadBytes += UInt64(payload.length)
        storedPayloadBytes += UInt64(record.count - payload.offset)
        let code = type.rawValue
        if let i = types.lastIndex(where: { $0.code == code }) {
            types[i].count += 1
            types[i].stored += UInt64(record.count)
            types[i].payload += UInt64(payload.length)
        } else {
            types.append((code, 1, UInt64(record.count), UInt64(payload.length)))
        }
    }

    /// Counts a blob stored under `number`.
    mutating func add(blob stored: [UInt8], number: UInt64) {
        blobs += 1
        blobStoredBytes += UInt64(stored.count)
        blobRawBytes += stored.withUnsafeBytes { EventLog.blobRawSize($0) }
        lastBlob = number
    }

    /// `tally` with this delta added, or nil when the tally does not end where the transaction began.
    func added(to tally: LogTally) -> LogTally? {
        guard tally.sequence == headBefore, tally.lastBlobNumber == lastBlobBefore else { return nil }
        var out = tally
        if let end {
            out.sequence = end.sequence
            out.chainHash = LogTally.hex(end.hash)
        }
        out.events += events
        out.recordBytes += recordBytes
        out.payloadBytes += payloadBytes
        out.storedPayloadBytes += storedPayloadBytes
        for t in types {
            if let i = out.types.firstIndex(where: { $0.code == t.code }) {
                out.types[i].count += t.count
                out.types[i].storedBytes += t.stored
                out.types[i].payloadBytes += t.payload
            } else {
                out.types.append(LogTally.TypeTally(code: t.code, count: t.count, storedBytes: t.stored, payloadBytes: t.payload))
            }
        }
        out.types.sort { $0.code < $1.code }
        out.numberedBlobs += blobs
        out.numberedStoredBytes += blobStoredBytes
        out.numberedRawBytes += blobRawBytes
        out.lastBlobNumber = lastBlob
        // Counts near 2^56 (a planted cache): no longer kept rather than carried past what a cache may hold.
        return out.isPlausible ? out : nil
    }
}
