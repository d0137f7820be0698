import EventLog
import EventModel
import FuzzSupport

/// Fuzzes the event record decoder (`RecordDecoder`: `RecordCodec.decodeHeader`, zstd, then
/// `DomainEvent.decode`) with the bytes of a stored record.
///
/// The decoder accepts more than the encoder writes (non-minimal varints, invalid UTF-8 repaired,
/// older schema versions upcast), so the check is that decoding is a projection. For every record that
/// decodes (envelope, and payload when it decodes):
/// - written back with `RecordCodec.encode` (payload re-encoded at the current schema version,
///   uncompressed) it decodes to the same envelope and event;
/// - that second record, decoded and written again, is byte-for-byte the same: nothing decodes to
///   something that re-encodes differently.
/// Compressed records must not make the decoder allocate more than the zstd frame can hold.
enum RecordFuzz {
    nonisolated(unsafe) static let decoder = try! RecordDecoder()

    static func check(_ bytes: [UInt8]) {
        guard let first = decode(bytes) else { return }
        let written = encode(first)
        guard let second = decode(written) else {
            FuzzCheck.fail("\(first) written back as \(written) does not decode")
        }
        FuzzCheck.require(second.stored.envelope == normalized(first).stored.envelope,
                          "envelope \(first.stored.envelope) reads back as \(second.stored.envelope)")
        FuzzCheck.require(second.event == first.event,
                          "event \(String(describing: first.event)) reads back as \(String(describing: second.event))")
        let rewritten = encode(second)
        FuzzCheck.require(rewritten == written, "record \(written) re-encodes as \(rewritten)")
    }

    /// A decoded record: the stored event, and its typed event when the payload decodes.
    struct Decoded {
        var stored: StoredEvent
        var event: DomainEvent?
    }

    static func decode(_ bytes: [UInt8]) -> Decoded? {
        guard let stored = try? bytes.withUnsafeBytes({ try decoder.decode($0, sequence: 1) }) else { return nil }
        return Decoded(stored: stored, event: try? stored.decode())
    }

    /// The record as this build writes it: the payload of a decoded event at the current version.
    static func normalized(_ decoded: Decoded) -> Decoded {
        var result = decoded
        if let event = decoded.event {
            var w = ByteWriter()
            event.encodePayload(to: &w)
            result.stored.payload = w.bytes
            result.stored.envelope.schemaVersion = event.schemaVersion
        }
        return result
    }

    static func encode(_ decoded: Decoded) -> [UInt8] {
        let record = normalized(decoded).stored
        let e = record.envelope
        var out = ByteWriter()
        record.payload.withUnsafeBytes { payload in
            RecordCodec.encode(id: e.id, type: e.type, schemaVersion: e.schemaVersion, recordedAt: e.recordedAt,
                               occurredAt: e.occurredAt, actor: e.actor, causationID: e.causationID,
                               correlationID: e.correlationID, account: e.account, stream: e.stream,
                               storedPayload: payload, uncompressedLength: payload.count, compressed: false, into: &out)
        }
        return out.bytes
    }
}
