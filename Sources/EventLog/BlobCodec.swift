import EventModel
import NativeCodecs

/// The stored form of a blob: a flag byte (1 = zstd), the raw size as a varint, then the data.
enum BlobCodec {
    static func prepare(_ bytes: UnsafeRawBufferPointer) throws -> PendingBlob {
        try BlobEncoder().prepare(bytes)
    }

    /// Decodes a stored blob and checks it against its hash.
    static func open(_ stored: [UInt8], hash: BlobHash, zstd: Zstd? = nil, hasher: SHA256Hasher? = nil) throws -> [UInt8] {
        let raw: [UInt8] = try stored.withUnsafeBytes { buf in
            var r = ByteReader(buf)
            do {
                let flag = try r.readByte()
                let size = try r.readVarint()
                let data = try r.readRaw(r.remaining)
                switch flag {
                case 0:
                    guard UInt64(data.count) == size else { throw EventLogError.corruptBlob(hash: hash.hex, reason: "size mismatch") }
                    return Array(data)
                case 1:
                    guard size < 1 << 34 else { throw EventLogError.corruptBlob(hash: hash.hex, reason: "implausible size \(size)") }
                    return try (zstd ?? Zstd()).decompress(data, expectedSize: Int(size))
                default:
                    throw EventLogError.corruptBlob(hash: hash.hex, reason: "unknown flag \(flag)")
                }
            } catch let e as DecodeError {
                throw EventLogError.corruptBlob(hash: hash.hex, reason: e.description)
            } catch let e as NativeCodecError {
                throw EventLogError.corruptBlob(hash: hash.hex, reason: e.description)
            }
        }
        let digest = try (hasher ?? SHA256Hasher()).hash(raw)
        guard digest == hash.bytes else { throw EventLogError.corruptBlob(hash: hash.hex, reason: "content does not match its SHA-256") }
        return raw
    }
}
