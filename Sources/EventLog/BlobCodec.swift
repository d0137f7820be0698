import EventModel
import NativeCodecs

/// The stored form of a blob: a flag byte, the raw size as a varint, then per flag:
/// - 0: the raw data;
/// - 1: the data compressed with zstd (no dictionary);
/// - 2: the id of a blob dictionary as a varint (`BlobDictionary`), then the data compressed with zstd and it.
///
/// Flags 0 and 1 are all format 1 wrote; format 2 adds flag 2.
package enum BlobCodec {
    /// Decodes a stored blob and checks it against its hash; `dictionary` finds a dictionary by id. `stored` may lie
    /// in a map (read in place, not copied first).
    package static func open(_ stored: UnsafeRawBufferPointer, hash: BlobHash, zstd: Zstd? = nil, hasher: SHA256Hasher? = nil,
                     dictionary: (UInt32) throws -> ZstdDictionary?) throws -> [UInt8] {
        let raw = try decode(stored, name: hash.hex, zstd: zstd, dictionary: dictionary)
        let digest = try (hasher ?? SHA256Hasher()).hash(raw)
        guard BlobHash(bytes: digest) == hash else { throw EventLogError.corruptBlob(hash: hash.hex, reason: "content does not match its SHA-256") }
        return raw
    }

    /// Decodes a stored blob without checking its content; `name` (its hash, or its number) names it in errors, and is
    /// made only for one.
    package static func decode(_ buf: UnsafeRawBufferPointer, name: @autoclosure () -> String, zstd: Zstd?,
                       dictionary: (UInt32) throws -> ZstdDictionary?) throws -> [UInt8] {
        var r = ByteReader(buf)
        do {
            let flag = try r.readByte()
            let size = try r.readVarint()
            if flag != 0 {
                guard size < 1 << 34 else { throw EventLogError.corruptBlob(hash: name(), reason: "implausible size \(size)") }
            }
            switch flag {
            case 0:
                let data = try r.readRaw(r.remaining)
                guard UInt64(data.count) == size else { throw EventLogError.corruptBlob(hash: name(), reason: "size mismatch") }
                return Array(data)
            case 1:
                let data = try r.readRaw(r.remaining)
                return try (zstd ?? Zstd()).decompress(data, expectedSize: Int(size))
            case 2:
                let id = try r.readVarint()
                guard id <= UInt64(UInt32.max), let d = try dictionary(UInt32(id)) else {
                    throw EventLogError.corruptBlob(hash: name(), reason: "compressed with dictionary \(id), which is missing or damaged")
                }
                let data = try r.readRaw(r.remaining)
                return try (zstd ?? Zstd()).decompress(data, expectedSize: Int(size), dictionary: d)
            default:
                throw EventLogError.corruptBlob(hash: name(), reason: "unknown flag \(flag)")
            }
        } catch let e as DecodeError {
            throw EventLogError.corruptBlob(hash: name(), reason: e.description)
        } catch let e as NativeCodecError {
            throw EventLogError.corruptBlob(hash: name(), reason: e.description)
        }
    }
}
