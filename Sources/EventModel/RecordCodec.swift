/// The on-disk layout of one log record (pure: no hashing, no compression, no I/O).
///
/// ```
/// offset  size  field
///      0     1  record format (2; 1 in records written before 2026-11-28)
///      1     1  flags: bit 0 payload zstd-compressed, bit 1 has causation, bit 2 has correlation
///      2    32  chain hash: format 2: SHA-256(previous hash ‖ sequence (8, big-endian) ‖ digest), where
///               digest = SHA-256(bytes 0..<2 ‖ bytes 34...); format 1: SHA-256(previous hash ‖ sequence ‖
///               bytes 0..<2 ‖ bytes 34...)
///     34    16  event id
///     50     2  event type (little-endian)
///     52     2  schema version
///     54     8  recorded-at, µs since epoch
///     62     8  occurred-at, µs since epoch
///     70     1  actor
///     71   0|16 causation id
///        0|16 correlation id
///        var  account (varint length + UTF-8)
///        var  stream (varint length + UTF-8)
///        var  payload length uncompressed (varint)
///        rest payload bytes as stored
/// ```
/// The sequence number is the record's key, not part of the value; the chain hash binds the two.
///
/// The two formats differ only in the chain hash. Format 2's digest covers a record alone, so it is computed
/// in parallel as records are encoded; only the short outer hash runs in log order. A log holds format 1
/// records then format 2 ones after an upgrade, each verified by its own rule (the format byte is in what both
/// hash, so changing it breaks the chain).
package enum RecordCodec {
    /// The record format written by this build.
    package static let format: UInt8 = 2
    /// The format whose chain hash is over the record's digest (`format` and later).
    package static let digestChainFormat: UInt8 = 2
    /// The formats this build reads (the layout is the same; see the chain hash above).
    package static let readableFormats: ClosedRange<UInt8> = 1...2
    /// Where the chain hash sits.
    package static let hashRange = 2..<34
    /// Size of the fixed part before the optional ids.
    package static let fixedSize = 71

    /// Flag bits.
    package static let compressedFlag: UInt8 = 1
    static let causationFlag: UInt8 = 2
    static let correlationFlag: UInt8 = 4

    /// Writes a record with a zero hash into `out` (cleared first). The caller fills the hash.
    package static func encode(id: EventID, type: EventType, schemaVersion: UInt16, recordedAt: Timestamp,
                              occurredAt: Timestamp, actor: Actor, causationID: EventID?, correlationID: EventID?,
                              account: String, stream: String, storedPayload: UnsafeRawBufferPointer,
                              uncompressedLength: Int, compressed: Bool, into out: inout ByteWriter) {
        out.removeAll()
        var flags: UInt8 = compressed ? compressedFlag : 0
        if causationID != nil { flags |= causationFlag }
        if correlationID != nil { flags |= correlationFlag }
        out.writeByte(format)
        out.writeByte(flags)
        out.writeRaw(repeatElement(0 as UInt8, count: 32))
        out.write(id)
        out.writeFixed(type.rawValue)
        out.writeFixed(schemaVersion)
        out.writeFixed(recordedAt.microseconds)
        out.writeFixed(occurredAt.microseconds)
        out.writeByte(actor.rawValue)
        if let c = causationID { out.write(c) }
        if let c = correlationID { out.write(c) }
        out.writeString(account)
        out.writeString(stream)
        out.writeVarint(UInt64(uncompressedLength))
        out.writeRaw(storedPayload)
    }

    /// A decoded record header: the envelope and where the payload is.
    package struct Header: Sendable {
        /// The envelope (with the sequence given to `decodeHeader`).
        package var envelope: EventEnvelope
        /// True when the stored payload is zstd-compressed.
        package var compressed: Bool
        /// The payload's uncompressed length.
        package var payloadLength: Int
        /// Where the stored payload starts in the record.
        package var payloadOffset: Int
    }

    /// Decodes a record's header. Throws on any inconsistency; never traps.
    package static func decodeHeader(_ raw: UnsafeRawBufferPointer, sequence: UInt64) throws(DecodeError) -> Header {
        var r = ByteReader(raw)
        let fmt = try r.readByte()
        guard readableFormats.contains(fmt) else { throw DecodeError.malformed("unknown record format \(fmt)", at: 0) }
        let flags = try r.readByte()
        guard flags & ~(compressedFlag | causationFlag | correlationFlag) == 0 else {
            throw DecodeError.malformed("unknown record flags \(flags)", at: 1)
        }
        _ = try r.readRaw(32)
        let id: EventID = try r.read()
        let type = EventType(rawValue: try r.readFixed())
        let version: UInt16 = try r.readFixed()
        let recordedAt = Timestamp(microseconds: try r.readFixed())
        let occurredAt = Timestamp(microseconds: try r.readFixed())
        let actorByte = try r.readByte()
        guard let actor = Actor(rawValue: actorByte) else {
            throw DecodeError.malformed("unknown actor \(actorByte)", at: r.offset - 1)
        }
        let causation: EventID? = flags & causationFlag != 0 ? try r.read(EventID.self) : nil
        let correlation: EventID? = flags & correlationFlag != 0 ? try r.read(EventID.self) : nil
        let account = try r.readString()
        let stream = try r.readString()
        let length = try r.readVarint()
        guard length <= UInt64(Int32.max) else { throw DecodeError.malformed("payload length \(length)", at: r.offset) }
        let compressed = flags & compressedFlag != 0
        if !compressed && Int(length) != r.remaining {
            throw DecodeError.malformed("payload length \(length) but \(r.remaining) bytes stored", at: r.offset)
        }
        let env = EventEnvelope(sequence: sequence, id: id, type: type, schemaVersion: version, recordedAt: recordedAt,
                                occurredAt: occurredAt, account: account, stream: stream, causationID: causation,
                                correlationID: correlation, actor: actor)
        return Header(envelope: env, compressed: compressed, payloadLength: Int(length), payloadOffset: r.offset)
    }

    /// Reads only where a record's payload is: its uncompressed length and where its stored bytes start, without
    /// decoding the envelope (for counting bytes as records are appended); nil where the header does not read.
    package static func peekPayload(_ raw: UnsafeRawBufferPointer) -> (length: Int, offset: Int)? {
        guard raw.count >= fixedSize else { return nil }
        let flags = raw[1]
        var r = ByteReader(raw, offset: fixedSize + (flags & causationFlag != 0 ? 16 : 0) + (flags & correlationFlag != 0 ? 16 : 0))
        guard (try? r.skipString()) != nil, (try? r.skipString()) != nil, let length = try? r.readVarint(),
              length <= UInt64(Int32.max) else { return nil }
        return (Int(length), r.offset)
    }

    /// Where a record's recorded-at time sits (8 bytes, little-endian microseconds).
    static let recordedAtOffset = 54

    /// Reads only a record's recorded-at time, or nil when its fixed part is cut short.
    package static func recordedAt(_ raw: UnsafeRawBufferPointer) -> Timestamp? {
        guard raw.count >= fixedSize else { return nil }
        return Timestamp(microseconds: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: recordedAtOffset, as: Int64.self)))
    }

    /// Overwrites a record's recorded-at time (its digest and chain hash must be made again after).
    package static func setRecordedAt(_ time: Timestamp, in raw: UnsafeMutableRawBufferPointer) {
        precondition(raw.count >= fixedSize, "a record shorter than its fixed part")
        raw.storeBytes(of: time.microseconds.littleEndian, toByteOffset: recordedAtOffset, as: Int64.self)
    }

    /// Reads only the event type of a record (for cheap type filters).
    package static func peekType(_ raw: UnsafeRawBufferPointer) -> EventType? {
        guard raw.count >= fixedSize else { return nil }
        return EventType(rawValue: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 50, as: UInt16.self)))
    }
}
