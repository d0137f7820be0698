import EventModel
import NativeCodecs

/// Packs a document's full-text columns into one zstd-compressed value and back.
///
/// The full-text table is contentless (FTS5 `content=''`): FTS5 keeps only its index, not a second copy
/// of every text column (that copy was 52% of the index file at 100K generated messages). Removing a
/// document's terms needs the exact values it was indexed with, so each document's columns are kept
/// packed (`doc_text`), ~45% of their size, and read back only to remove the document or to compare it with
/// a rebuild.
///
/// The format: the columns' total size in bytes (a varint), then a zstd frame of each column as a varint
/// length and its UTF-8 bytes, in `SearchSchema.textColumns` order. Not thread-safe: one per thread.
final class SearchTextPacker {
    private let zstd: Zstd

    /// The most bytes the columns of one packed document may expand to. A document's body is cut at
    /// `SearchDocument.maxBodyBytes` (1 MiB) and its headers come from the parser's bounded fields, so a real
    /// one is far below this; a value that claims more is corrupt.
    static let maxUnpackedBytes = 64 << 20

    /// zstd level 1: at 100K generated messages `replay --view search` took 9.2-10.1 s of user CPU against
    /// 9.6-10.5 s at level 3, the index 16 KB larger (of 239 MB; level 9 had saved 1% of the packed text).
    init() throws(SearchIndexError) {
        do {
            zstd = try Zstd(level: 1)
        } catch {
            throw .io("zstd", "\(error)")
        }
    }

    /// The packed form of `columns` (`SearchSchema.textColumns.count` strings).
    func pack(_ columns: [String]) throws(SearchIndexError) -> [UInt8] {
        var w = ByteWriter(capacity: columns.reduce(16) { $0 + $1.utf8.count + 5 })
        for c in columns { w.write(c) }
        var out = ByteWriter(capacity: 16)
        out.writeVarint(UInt64(w.count))
        var bytes = out.bytes
        do {
            try w.withUnsafeBytes { bytes.append(contentsOf: try zstd.compress($0)) }
        } catch {
            throw .io("zstd", "\(error)")
        }
        return bytes
    }

    /// The columns of a packed document. Throws `SearchIndexError.corruptText` for bytes that are not one.
    func unpack(_ packed: [UInt8]) throws(SearchIndexError) -> [String] {
        do {
            return try packed.withUnsafeBytes { buf in
                var r = ByteReader(buf)
                let size = try r.readVarint()
                guard size <= UInt64(SearchTextPacker.maxUnpackedBytes) else {
                    throw SearchIndexError.corruptText("it claims \(size) bytes, over the \(SearchTextPacker.maxUnpackedBytes) a document may hold")
                }
                let raw = try zstd.decompress(UnsafeRawBufferPointer(rebasing: buf[r.offset...]), expectedSize: Int(size))
                return try raw.withUnsafeBytes { (all) throws(DecodeError) -> [String] in
                    var cols = ByteReader(all)
                    var out: [String] = []
                    for _ in SearchSchema.textColumns { out.append(try cols.readString()) }
                    guard cols.isAtEnd else { throw DecodeError.malformed("bytes after the last column", at: cols.offset) }
                    return out
                }
            }
        } catch let e as SearchIndexError {
            throw e
        } catch {
            throw .corruptText("\(error)")
        }
    }
}
