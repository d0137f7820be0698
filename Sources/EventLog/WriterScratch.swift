import EventModel
import NativeCodecs

/// A batch encoded ahead of the write transaction: records with a zero chain hash and stream keys,
/// so the transaction only hashes, checks and puts.
struct PreparedBatch {
    var records: [[UInt8]] = []
    var streamKeys: [String] = []
}

/// The writer's reusable state: a hasher, a zstd context and buffers. Used under the writer lock.
final class WriterScratch {
    let hasher: SHA256Hasher
    private let zstd: Zstd
    private var payload = ByteWriter(capacity: 4096)
    private var compressed: [UInt8] = []

    init() throws {
        hasher = try SHA256Hasher()
        zstd = try Zstd(level: 3)
    }

    func prepare(_ batch: [NewEvent]) throws -> PreparedBatch {
        var out = PreparedBatch()
        out.records.reserveCapacity(batch.count)
        out.streamKeys.reserveCapacity(batch.count)
        let now = Timestamp.now
        for ev in batch {
            if ev.stream.rawValue.isEmpty { throw EventLogError.invalidStream(ev.stream.rawValue) }
            payload.removeAll()
            ev.event.encodePayload(to: &payload)
            let rawCount = payload.count
            var record = ByteWriter(capacity: rawCount + 96 + ev.stream.rawValue.utf8.count + ev.account.utf8.count)
            var useCompressed = false
            if rawCount >= EventLog.compressionThreshold {
                let cap = Zstd.bound(rawCount)
                if compressed.count < cap { compressed = [UInt8](repeating: 0, count: cap) }
                let n = try payload.withUnsafeBytes { src in
                    try compressed.withUnsafeMutableBytes { dst in try zstd.compress(src, into: dst) }
                }
                if n * 10 <= rawCount * 9 {
                    useCompressed = true
                    compressed.withUnsafeBytes { c in
                        encode(ev, now: now, stored: UnsafeRawBufferPointer(rebasing: c[0..<n]), rawLength: rawCount,
                               compressed: true, into: &record)
                    }
                }
            }
            if !useCompressed {
                payload.withUnsafeBytes { encode(ev, now: now, stored: $0, rawLength: rawCount, compressed: false, into: &record) }
            }
            out.records.append(record.bytes)
            out.streamKeys.append(EventLog.streamKey(ev.stream.rawValue))
        }
        return out
    }

    private func encode(_ ev: NewEvent, now: Timestamp, stored: UnsafeRawBufferPointer, rawLength: Int, compressed: Bool,
                        into record: inout ByteWriter) {
        RecordCodec.encode(id: ev.id, type: ev.event.type, schemaVersion: ev.event.schemaVersion, recordedAt: now,
                           occurredAt: ev.occurredAt, actor: ev.actor, causationID: ev.causationID,
                           correlationID: ev.correlationID, account: ev.account, stream: ev.stream.rawValue,
                           storedPayload: stored, uncompressedLength: rawLength, compressed: compressed, into: &record)
    }
}
