import EventModel
import NativeCodecs

/// Hashes and compresses blobs for the blob store with reusable contexts: one per thread.
package final class BlobEncoder {
    private let hasher: SHA256Hasher
    private let zstd: Zstd

    /// Creates an encoder compressing at `level` (zstd) when no dictionary is given.
    package init(level: Int32 = 3) throws {
        hasher = try SHA256Hasher()
        zstd = try Zstd(level: level)
    }

    /// The SHA-256 of `bytes`.
    package func hash(_ bytes: UnsafeRawBufferPointer) -> BlobHash {
        BlobHash(bytes: hasher.hash(bytes))!
    }

    /// Hashes and (when it saves at least 10%) compresses `bytes`, with `dictionary` when one is given.
    package func prepare(_ bytes: UnsafeRawBufferPointer, dictionary: BlobDictionary? = nil) throws -> PendingBlob {
        let hash = self.hash(bytes)
        var w = ByteWriter(capacity: bytes.count / 2 + 16)
        var compressed: [UInt8] = []
        if bytes.count >= 64 {
            compressed = try dictionary.map { try zstd.compress(bytes, dictionary: $0.zstd) } ?? zstd.compress(bytes)
        }
        if !compressed.isEmpty && compressed.count * 10 <= bytes.count * 9 {
            if let dictionary {
                w.writeByte(2)
                w.writeVarint(UInt64(bytes.count))
                w.writeVarint(UInt64(dictionary.id))
            } else {
                w.writeByte(1)
                w.writeVarint(UInt64(bytes.count))
            }
            w.writeRaw(compressed)
        } else {
            w.writeByte(0)
            w.writeVarint(UInt64(bytes.count))
            w.writeRaw(bytes)
        }
        return PendingBlob(hash: hash, rawSize: bytes.count, stored: w.bytes)
    }
}
