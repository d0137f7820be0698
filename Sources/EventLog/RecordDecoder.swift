import EventModel
import NativeCodecs

/// Decodes stored records into `StoredEvent`s, with its own zstd context (one per reader).
package final class RecordDecoder {
    private var zstd: Zstd?

    /// Creates a decoder.
    package init() throws {}

    /// Decodes the record `raw` stored at `sequence`.
    package func decode(_ raw: UnsafeRawBufferPointer, sequence: UInt64) throws -> StoredEvent {
        let header = try self.header(raw, sequence: sequence)
        let stored = UnsafeRawBufferPointer(rebasing: raw[header.payloadOffset...])
        let payload = header.compressed ? try decompress(stored, header, sequence: sequence) : Array(stored)
        return StoredEvent(envelope: header.envelope, payload: payload)
    }

    /// Decodes the record `raw` stored at `sequence` into its envelope and typed event, reading the payload in
    /// place (a compressed one is decompressed first): no copy of the payload bytes is made. Throws only when
    /// the record's header (or its compressed payload) does not decode; a payload that does not decode as its
    /// type is the `event`'s failure.
    package func decodeTyped(_ raw: UnsafeRawBufferPointer, sequence: UInt64) throws -> DecodedRecord {
        let header = try self.header(raw, sequence: sequence)
        let env = header.envelope
        let stored = UnsafeRawBufferPointer(rebasing: raw[header.payloadOffset...])
        guard header.compressed else {
            return DecodedRecord(envelope: env, event: Result { () throws(DecodeError) -> DomainEvent in
                try DomainEvent.decode(type: env.type, version: env.schemaVersion, bytes: stored)
            })
        }
        let payload = try decompress(stored, header, sequence: sequence)
        return DecodedRecord(envelope: env, event: Result { () throws(DecodeError) -> DomainEvent in
            try DomainEvent.decode(type: env.type, version: env.schemaVersion, payload: payload)
        })
    }

    private func header(_ raw: UnsafeRawBufferPointer, sequence: UInt64) throws -> RecordCodec.Header {
        do {
            return try RecordCodec.decodeHeader(raw, sequence: sequence)
        } catch {
            throw EventLogError.corruptRecord(sequence: sequence, reason: error.description)
        }
    }

    private func decompress(_ stored: UnsafeRawBufferPointer, _ header: RecordCodec.Header, sequence: UInt64) throws -> [UInt8] {
        if zstd == nil { zstd = try Zstd() }
        do {
            return try zstd!.decompress(stored, expectedSize: header.payloadLength)
        } catch {
            throw EventLogError.corruptRecord(sequence: sequence, reason: "\(error)")
        }
    }
}
