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

    /// Hashes and (when it saves at least 10%) compresses `bytes`, with `dictionary` when one is given. `hash`: their
    /// SHA-256 when the caller has it already (an mbox import derives the message's ids from it), not computed again.
    package func prepare(_ bytes: UnsafeRawBufferPointer, dictionary: BlobDictionary? = nil, hash known: BlobHash? = nil) throws -> PendingBlob {
        let hash = known ?? self.hash(bytes)
        var compressed: [UInt8] = []
        if bytes.count >= 64 {
            compressed = try dictionary.map { try zstd.compress(bytes, dictionary: $0.zstd) } ?? zstd.compress(bytes)
        }
        // The header (kind, raw size, dictionary id) then the body, written once into the stored array.
        var header = ByteWriter(capacity: 32)
        if !compressed.isEmpty && compressed.count * 10 <= bytes.count * 9 {
            header.writeByte(dictionary == nil ? 1 : 2)
            header.writeVarint(UInt64(bytes.count))
            if let dictionary { header.writeVarint(UInt64(dictionary.id)) }
            return compressed.withUnsafeBytes { body in
                PendingBlob(hash: hash, rawSize: bytes.count, stored: BlobEncoder.joined(header, body))
            }
        }
        header.writeByte(0)
        header.writeVarint(UInt64(bytes.count))
        return PendingBlob(hash: hash, rawSize: bytes.count, stored: BlobEncoder.joined(header, bytes))
    }

    /// `header`'s bytes then `body`'s, in one array.
    private static func joined(_ header: borrowing ByteWriter, _ body: UnsafeRawBufferPointer) -> [UInt8] {
        var stored: [UInt8] = []
        stored.reserveCapacity(header.count + body.count)
        header.withUnsafeBytes { stored.append(contentsOf: $0) }
        stored.append(contentsOf: body)
        return stored
    }
}
