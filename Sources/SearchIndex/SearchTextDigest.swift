import NativeCodecs

/// A digest of a document's text columns as they were indexed: what `doc_text` keeps of them.
///
/// Removing a document's terms from the contentless `fts` table takes FTS5's `'delete'` command with the exact
/// values indexed, which the table does not keep. They are derived again when needed: from the `EmailReceived` at
/// the sequence `doc_text` names beside the digest, and its message in the blob store, as the reading thread first
/// derived them. They are used only when their digest is the one kept, so a parser that would now index a message
/// differently (or a message the store no longer has) leaves the old terms where they are: unreachable, as every
/// result reads `docs`, and reported by `verify --views`; never an index damaged by a `'delete'` of other values.
///
/// SHA-256 over the column count and each column's length and UTF-8 bytes (varints), cut to 16 bytes. One
/// instance per thread.
final class SearchTextDigest {
    /// The bytes of a digest.
    static let byteCount = 16
    private let hasher: SHA256Hasher

    init() throws(SearchIndexError) {
        do {
            hasher = try SHA256Hasher()
        } catch {
            throw .io("SHA-256", "\(error)")
        }
    }

    /// The digest of `columns` (`SearchSchema.textColumns` order).
    func callAsFunction(_ columns: [String]) -> [UInt8] {
        hasher.reset()
        update(UInt64(columns.count))
        for column in columns {
            update(UInt64(column.utf8.count))
            var text = column
            text.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
        }
        return Array(hasher.finish().prefix(SearchTextDigest.byteCount))
    }

    private func update(_ value: UInt64) {
        var v = value
        var bytes: [UInt8] = []
        repeat {
            bytes.append(UInt8(v & 0x7F) | (v > 0x7F ? 0x80 : 0))
            v >>= 7
        } while v > 0
        bytes.withUnsafeBytes { hasher.update($0) }
    }
}
