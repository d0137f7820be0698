import EventModel
import LMDB

extension EventLog {
    /// Counts events by type, their bytes, blobs and compression (`mailstore stats`).
    package func stats() throws -> LogStats {
        var s = LogStats()
        var perType: [EventType: LogStats.TypeStats] = [:]
        let end = try head().sequence
        try forEachRecord(through: end) { _, key, record in
            if let h = try? RecordCodec.decodeHeader(record, sequence: EventLog.decodeSequence(key)) {
                var t = perType[h.envelope.type] ?? LogStats.TypeStats(type: h.envelope.type, count: 0, storedBytes: 0, payloadBytes: 0)
                t.count += 1
                t.storedBytes += UInt64(record.count)
                t.payloadBytes += UInt64(h.payloadLength)
                perType[h.envelope.type] = t
                s.payloadBytes += UInt64(h.payloadLength)
                s.storedPayloadBytes += UInt64(record.count - h.payloadOffset)
            }
            s.events += 1
            s.recordBytes += UInt64(record.count)
            return true
        }
        s.types = perType.values.sorted { ($0.count, $1.type) > ($1.count, $0.type) }
        try forEachBlob { _, _, _, value in
            s.blobs += 1
            s.blobStoredBytes += UInt64(value.count)
            var r = ByteReader(value)
            _ = try? r.readByte()
            s.blobRawBytes += (try? r.readVarint()) ?? 0
        }
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
}
