import EventModel
import Foundation
import NativeCodecs

extension RecordFuzz {
    /// Writes the seed corpus: one record per example event (`DomainEvent.examples`), plain, and
    /// zstd-compressed as the log stores large payloads, with and without causation and correlation ids.
    static func writeSeeds(to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let zstd = try Zstd()
        for (index, event) in DomainEvent.examples.enumerated() {
            var payload = ByteWriter()
            event.encodePayload(to: &payload)
            let plain = payload.bytes
            let compressed = try plain.withUnsafeBytes { try zstd.compress($0) }
            for (suffix, stored, isCompressed) in [("plain", plain, false), ("zstd", compressed, true)] {
                var out = ByteWriter()
                let linked = index % 2 == 0
                stored.withUnsafeBytes { bytes in
                    RecordCodec.encode(id: EventID(high: UInt64(index) << 32 | 0x0193, low: 0x1234_5678_9ABC),
                                       type: event.type, schemaVersion: event.schemaVersion,
                                       recordedAt: Timestamp(microseconds: 1_727_000_000_000_000 + Int64(index)),
                                       occurredAt: Timestamp(microseconds: 1_726_000_000_000_000),
                                       actor: [Actor.sync, .user, .system][index % 3],
                                       causationID: linked ? EventID(high: 1, low: 2) : nil,
                                       correlationID: linked ? nil : EventID(high: 3, low: 4),
                                       account: index % 4 == 0 ? "" : "work", stream: "email/\(index)",
                                       storedPayload: bytes, uncompressedLength: plain.count,
                                       compressed: isCompressed, into: &out)
                }
                let name = "\(directory)/\(String(format: "%02d", index))-\(event.type.name)-\(suffix)"
                try Data(out.bytes).write(to: URL(fileURLWithPath: name))
            }
        }
    }
}
