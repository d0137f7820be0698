import EventModel
import LMDB

extension EventLog {
    /// Counts events by type, their bytes, blobs and compression (`mailstore stats`).
    public func stats() throws -> LogStats {
        var s = LogStats()
        var perType: [EventType: LogStats.TypeStats] = [:]
        var next: UInt64 = 1
        let end = try head().sequence
        var key = [UInt8](repeating: 0, count: 8)
        while next <= end {
            EventLog.encodeSequence(next, into: &key)
            try environment.read { txn in
                try txn.withCursor(events) { c in
                    var entry = try key.withUnsafeBytes { try c.seek(atLeast: $0) }
                    var n = 0
                    while let e = entry, n < 16384 {
                        let seq = EventLog.decodeSequence(e.key)
                        if seq > end { break }
                        next = seq + 1
                        n += 1
                        if let h = try? RecordCodec.decodeHeader(e.value, sequence: seq) {
                            let stored = UInt64(e.value.count - h.payloadOffset)
                            var t = perType[h.envelope.type] ?? LogStats.TypeStats(type: h.envelope.type, count: 0, storedBytes: 0, payloadBytes: 0)
                            t.count += 1
                            t.storedBytes += UInt64(e.value.count)
                            t.payloadBytes += UInt64(h.payloadLength)
                            perType[h.envelope.type] = t
                            s.payloadBytes += UInt64(h.payloadLength)
                            s.storedPayloadBytes += stored
                        }
                        s.events += 1
                        s.recordBytes += UInt64(e.value.count)
                        entry = try c.next()
                    }
                    if entry == nil { next = end + 1 }
                }
            }
        }
        s.types = perType.values.sorted { ($0.count, $1.type) > ($1.count, $0.type) }
        try forEachBlob(chunk: 4096) { _, value in
            s.blobs += 1
            s.blobStoredBytes += UInt64(value.count)
            var r = ByteReader(value)
            _ = try? r.readByte()
            s.blobRawBytes += (try? r.readVarint()) ?? 0
        }
        s.fileBytes = UInt64(environment.usedBytes)
        s.mapBytes = UInt64(environment.mapSize)
        return s
    }
}
