import EventModel
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
/// SHA-256 over the column count and each column's length and UTF-8 bytes (varints, as `ByteWriter` writes them),
/// cut to 16 bytes. One instance per thread.
final class SearchTextDigest {
    /// The bytes of a digest.
    static let byteCount = 16
    private let hasher: SHA256Hasher
    /// The columns serialized for hashing, its room kept from one document to the next.
    private var scratch = ByteWriter(capacity: 4_096)

    init() throws(SearchIndexError) {
        do {
            hasher = try SHA256Hasher()
        } catch {
            throw .io("SHA-256", "\(error)")
        }
    }

    /// The digest of `columns` (`SearchSchema.textColumns` order).
    func callAsFunction(_ columns: [String]) -> [UInt8] {
        scratch.removeAll()
        scratch.writeVarint(UInt64(columns.count))
        for column in columns { scratch.writeString(column) }
        hasher.reset()
        scratch.withUnsafeBytes { hasher.update($0) }
        return Array(hasher.finish().prefix(SearchTextDigest.byteCount))
    }
}
