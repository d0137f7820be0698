import EventModel
import NativeCodecs

/// Decodes stored records into `StoredEvent`s, with its own zstd context (one per reader).
package final class RecordDecoder {
    private var zstd: Zstd?

    /// Creates a decoder.
    package init() throws {}

    /// Decodes the record `raw` stored at `sequence`.
    package func decode(_ raw: UnsafeRawBufferPointer, sequence: UInt64) throws -> StoredEvent {
        let header: RecordCodec.Header
        do {
            header = try RecordCodec.decodeHeader(raw, sequence: sequence)
        } catch {
            throw EventLogError.corruptRecord(sequence: sequence, reason: error.description)
        }
        let stored = UnsafeRawBufferPointer(rebasing: raw[header.payloadOffset...])
        let payload: [UInt8]
        if header.compressed {
            if zstd == nil { zstd = try Zstd() }
            do {
                payload = try zstd!.decompress(stored, expectedSize: header.payloadLength)
            } catch {
                throw EventLogError.corruptRecord(sequence: sequence, reason: "\(error)")
            }
        } else {
            payload = Array(stored)
        }
        return StoredEvent(envelope: header.envelope, payload: payload)
    }
}
