import EventModel
import LMDB

extension EventLog {
    /// Counts events by type, their bytes, blobs and compression (`mailstore stats`).
    ///
    /// `cache`: a file keeping what was counted (`LogTally`): where it holds a tally of this log, only the events and
    /// blobs appended since are walked, and the file is replaced with the new tally (when it can be written). Nil:
    /// everything is walked.
    package func stats(cache: String? = nil) throws -> LogStats {
        // What this process keeps as it appends (`keepsTally`) is written first, so the walk below starts there.
        if cache != nil { saveKeptTally() }
        let found = try cache.map(cachedTally) ?? (LogTally(), cached: false)
        var tally = found.0
        let before = tally
        try advance(&tally, legacyCounted: found.cached)
        if let cache, tally != before { tally.save(cache) }

        var s = LogStats()
        s.events = tally.events
        s.recordBytes = tally.recordBytes
        s.payloadBytes = tally.payloadBytes
        s.storedPayloadBytes = tally.storedPayloadBytes
        s.types = tally.typeStats.sorted { ($0.count, $1.type) > ($1.count, $0.type) }
        s.blobs = tally.legacyBlobs + tally.numberedBlobs
        s.blobStoredBytes = tally.legacyStoredBytes + tally.numberedStoredBytes
        s.blobRawBytes = tally.legacyRawBytes + tally.numberedRawBytes
        let count = try dictionaryCount()
        s.dictionaries = UInt64(count)
        if count > 0 {
            try environment.read { txn in
                for id in 1...count {
                    s.dictionaryBytes += UInt64(max(0, (try txn.getBytes(meta, key: EventLog.dictionaryKey(id))?.count ?? 32) - 32))
                }
            }
        }
        s.fileBytes = UInt64(environment.usedBytes)
        s.mapBytes = UInt64(environment.mapSize)
        return s
    }

    /// Counts into `tally` the events after its sequence and the numbered blobs after its last blob number, through
    /// the log's head; the hash-keyed blobs of formats 1 and 2 too unless `legacyCounted` (a cached tally counted them
    /// all: `holds`).
    func advance(_ tally: inout LogTally, legacyCounted: Bool) throws {
        let end = try head().sequence
        if end > tally.sequence {
            var perType: [EventType: LogStats.TypeStats] = [:]
            for t in tally.typeStats { perType[t.type] = t }
            try forEachRecord(from: tally.sequence + 1, through: end) { _, key, record in
                if let h = try? RecordCodec.decodeHeader(record, sequence: EventLog.decodeSequence(key)) {
                    var t = perType[h.envelope.type] ?? LogStats.TypeStats(type: h.envelope.type, count: 0, storedBytes: 0, payloadBytes: 0)
                    t.count += 1
                    t.storedBytes += UInt64(record.count)
                    t.payloadBytes += UInt64(h.payloadLength)
                    perType[h.envelope.type] = t
                    tally.payloadBytes += UInt64(h.payloadLength)
                    tally.storedPayloadBytes += UInt64(record.count - h.payloadOffset)
                }
                tally.events += 1
                tally.recordBytes += UInt64(record.count)
                return true
            }
            tally.types = perType.values.sorted { $0.type < $1.type }
                .map { LogTally.TypeTally(code: $0.type.rawValue, count: $0.count, storedBytes: $0.storedBytes, payloadBytes: $0.payloadBytes) }
            tally.sequence = end
            tally.chainHash = LogTally.hex(try chainHash(at: end) ?? EventLog.zeroHash)
        }
        // The hash-keyed blobs of formats 1 and 2: no build appends to them but an older one (a cached tally counted
        // as many as there are: `holds`).
        if !legacyCounted {
            try forEachEntry(of: blobs) { _, _, value in
                tally.legacyBlobs += 1
                tally.legacyStoredBytes += UInt64(value.count)
                tally.legacyRawBytes += EventLog.blobRawSize(value)
            }
        }
        if let blobData {
            var after: [UInt8]?
            if tally.lastBlobNumber > 0 {
                var key = [UInt8](repeating: 0, count: 8)
                EventLog.encodeSequence(tally.lastBlobNumber, into: &key)
                after = key
            }
            try forEachEntry(of: blobData, after: after) { _, key, value in
                tally.numberedBlobs += 1
                tally.numberedStoredBytes += UInt64(value.count)
                tally.numberedRawBytes += EventLog.blobRawSize(value)
                if key.count == 8 { tally.lastBlobNumber = EventLog.decodeSequence(key) }
            }
        }
    }

    /// A blob's raw size, from its stored form's header (0 where it does not read).
    static func blobRawSize(_ value: UnsafeRawBufferPointer) -> UInt64 {
        var r = ByteReader(value)
        _ = try? r.readByte()
        return (try? r.readVarint()) ?? 0
    }

    /// The tally the cache file `path` holds where it is this log's (`holds`) and true, else an empty one and false.
    func cachedTally(_ path: String) throws -> (LogTally, cached: Bool) {
        if let found = LogTally.load(path), try holds(found) { return (found, true) }
        return (LogTally(), false)
    }

    /// Whether `tally` counted this log's first events and blobs (see `LogTally`): the event it ends at has the chain
    /// hash it recorded, the hash-keyed blobs are as many as it counted, and its last numbered blob is there.
    func holds(_ tally: LogTally) throws -> Bool {
        guard let hash = try chainHash(at: tally.sequence), LogTally.hex(hash) == tally.chainHash else { return false }
        return try environment.read { txn in
            guard try txn.stat(blobs).entries == tally.legacyBlobs else { return false }
            guard tally.lastBlobNumber > 0 else { return tally.numberedBlobs == 0 }
            guard let blobData else { return false }
            var key = [UInt8](repeating: 0, count: 8)
            EventLog.encodeSequence(tally.lastBlobNumber, into: &key)
            return try key.withUnsafeBytes { try txn.get(blobData, key: $0) } != nil
        }
    }
}
