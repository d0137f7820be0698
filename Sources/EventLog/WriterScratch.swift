import EventModel
import NativeCodecs

/// A batch encoded ahead of the write transaction: records with a zero chain hash and stream keys,
/// so the transaction only hashes, checks and puts.
///
/// The records are concatenated in one buffer (`bytes`, record `i` at `spans[i]`) and the stream keys in
/// another (`keyBytes`, key `i` at `keySpans[i]`): a few allocations per chunk, not a string per event.
struct PreparedBatch {
    var bytes: [UInt8] = []
    var spans: [Range<Int>] = []
    var keyBytes: [UInt8] = []
    var keySpans: [Range<Int>] = []
    var ids: [EventID] = []
    var expected: [ExpectedVersion] = []
    /// Each record's digest (`EventLog.recordDigest`), 32 bytes each: record `i`'s at `i * 32`.
    var digests: [UInt8] = []

    /// Event `i`'s stream key as a string (for expected-version checks, which count by key).
    func streamKey(_ i: Int) -> String { String(decoding: keyBytes[keySpans[i]], as: UTF8.self) }

    /// The bytes its buffers hold room for.
    var capacityBytes: Int {
        bytes.capacity + keyBytes.capacity + (spans.capacity + keySpans.capacity) * MemoryLayout<Range<Int>>.stride
            + ids.capacity * MemoryLayout<EventID>.stride + expected.capacity * MemoryLayout<ExpectedVersion>.stride
            + digests.capacity
    }

    /// Empties every buffer, keeping its capacity.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        keyBytes.removeAll(keepingCapacity: true)
        keySpans.removeAll(keepingCapacity: true)
        ids.removeAll(keepingCapacity: true)
        expected.removeAll(keepingCapacity: true)
        digests.removeAll(keepingCapacity: true)
    }
}

/// The writer's reusable state: a hasher, a zstd context and buffers. Used under the writer lock, by one
/// thread at a time.
final class WriterScratch {
    /// For the chain hashes, on the writing thread.
    let hasher: SHA256Hasher
    /// For the records' digests, on the thread encoding with this scratch (which may run beside the writing one).
    private let digestHasher: SHA256Hasher
    /// Emptied chunks to encode into, shared with the other scratch of the writer.
    let spares: SpareBatches
    private let zstd: Zstd
    private var payload = ByteWriter(capacity: 4096)
    private var compressed: [UInt8] = []
    private var record = ByteWriter(capacity: 4096)
    /// Record and stream-key bytes per event in the last chunk, to size the next chunk's buffers at once
    /// (growing them by doubling copied each and faulted in fresh pages).
    private var recordBytesPerEvent = 256
    private var keyBytesPerEvent = 32
    /// The most a chunk's buffer reserves up front (8 MiB).
    static let maxReserve = 8 << 20

    init(spares: SpareBatches) throws {
        self.spares = spares
        hasher = try SHA256Hasher()
        digestHasher = try SHA256Hasher()
        zstd = try Zstd(level: 3)
    }

    /// Encodes the events of `batch` in `range` (all of it by default), recorded at `now`.
    func prepare(_ batch: [NewEvent], range: Range<Int>? = nil, now: Timestamp = .now) throws -> PreparedBatch {
        let range = range ?? batch.indices
        var out = spares.take() ?? PreparedBatch()
        out.spans.reserveCapacity(range.count)
        out.keySpans.reserveCapacity(range.count)
        // A little over the last chunk's sizes, so a chunk like it needs no growth; at most `maxReserve` each
        // (a chunk after one of a few huge events grows as it needs instead of reserving for a thousand such).
        out.bytes.reserveCapacity(min(WriterScratch.maxReserve, range.count * (recordBytesPerEvent + recordBytesPerEvent / 8)))
        out.keyBytes.reserveCapacity(min(WriterScratch.maxReserve, range.count * (keyBytesPerEvent + keyBytesPerEvent / 8)))
        out.ids.reserveCapacity(range.count)
        out.expected.reserveCapacity(range.count)
        out.digests.reserveCapacity(range.count * 32)
        // The buffers are moved into locals for the loop (a class property is checked for exclusive access
        // at each use), and events are read field by field through a pointer: binding one to a local, or
        // passing it whole, copies it and retains every string and array in it (a fifth of an append's time
        // in the log bench's profile).
        var payload = ByteWriter(capacity: 0), record = ByteWriter(capacity: 0)
        swap(&payload, &self.payload)
        swap(&record, &self.record)
        defer {
            swap(&payload, &self.payload)
            swap(&record, &self.record)
        }
        let eventOffset = NewEvent.eventOffset
        try batch.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            for i in range {
                let ev = base + i
                let stream = ev.pointee.stream.rawValue
                if stream.isEmpty { throw EventLogError.invalidStream(stream) }
                payload.removeAll()
                let (type, schemaVersion) = DomainEvent.encodePayload(
                    at: UnsafeRawPointer(ev).advanced(by: eventOffset).assumingMemoryBound(to: DomainEvent.self),
                    to: &payload)
                let rawCount = payload.count
                var compressedCount: Int? = nil
                if rawCount >= EventLog.compressionThreshold {
                    let cap = Zstd.bound(rawCount)
                    if compressed.count < cap { compressed = [UInt8](repeating: 0, count: cap) }
                    let n = try payload.withUnsafeBytes { src in
                        try compressed.withUnsafeMutableBytes { dst in try zstd.compress(src, into: dst) }
                    }
                    if n * 10 <= rawCount * 9 { compressedCount = n }
                }
                func encode(_ bytes: UnsafeRawBufferPointer, compressed: Bool) {
                    RecordCodec.encode(id: ev.pointee.id, type: type, schemaVersion: schemaVersion, recordedAt: now,
                                       occurredAt: ev.pointee.occurredAt, actor: ev.pointee.actor,
                                       causationID: ev.pointee.causationID, correlationID: ev.pointee.correlationID,
                                       account: ev.pointee.account, stream: stream, storedPayload: bytes,
                                       uncompressedLength: rawCount, compressed: compressed, into: &record)
                }
                if let n = compressedCount {
                    compressed.withUnsafeBytes { encode(UnsafeRawBufferPointer(rebasing: $0[0..<n]), compressed: true) }
                } else {
                    payload.withUnsafeBytes { encode($0, compressed: false) }
                }
                let start = out.bytes.count
                record.withUnsafeBytes { out.bytes.append(contentsOf: $0) }
                let digestStart = out.digests.count
                out.digests.append(contentsOf: EventLog.zeroHash)
                record.withUnsafeBytes { rec in
                    out.digests.withUnsafeMutableBytes { d in
                        EventLog.recordDigest(rec, hasher: digestHasher,
                                              into: UnsafeMutableRawBufferPointer(rebasing: d[digestStart..<(digestStart + 32)]))
                    }
                }
                out.spans.append(start..<out.bytes.count)
                let keyStart = out.keyBytes.count
                EventLog.appendStreamKey(stream, to: &out.keyBytes)
                out.keySpans.append(keyStart..<out.keyBytes.count)
                out.ids.append(ev.pointee.id)
                out.expected.append(ev.pointee.expectedVersion)
            }
        }
        if !range.isEmpty {
            recordBytesPerEvent = max(64, out.bytes.count / range.count)
            keyBytesPerEvent = max(8, out.keyBytes.count / range.count)
        }
        return out
    }
}
