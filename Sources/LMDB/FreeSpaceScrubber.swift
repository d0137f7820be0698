import CLMDB

/// Zeroes the unused middle of the B-tree pages of a compacted copy of an environment's data file, read as a
/// stream of pages, so that the copy compresses well (the views' snapshots).
///
/// An LMDB branch or leaf page keeps its node pointers after the header, growing up to `mp_lower`, and its nodes
/// at the end, growing down from `mp_upper`; the bytes between are free and never read (`mdb_page_copy` itself
/// skips them). They still hold whatever the page held before: stale nodes of the page it was copied from on
/// write. In the views at a million messages that is about a third of the file, and as good as random to a
/// compressor: zeroed, a snapshot's zstd frame at level 1 went from 372 to 231 MB (2026-11-25).
///
/// Only what is certainly free is touched. A page is scrubbed when its header says branch or leaf (not meta, not
/// `LEAF2`: those pack fixed-size keys where the pointers would be), its page number is its position in the
/// file (true of every page of a compacted copy: `mdb_env_copy2` with `MDB_CP_COMPACT` renumbers them), and
/// `header <= lower <= upper <= page size`. The pages of an overflow value (a header, then raw value bytes that
/// may look like anything) are skipped whole. Anything else (a page of another layout, a damaged one, an LMDB
/// whose header is not 0.9's) is left as it is: the worst a scrubber that does not recognise a file can do is
/// nothing.
package struct FreeSpaceScrubber {
    /// The page size of the file.
    package let pageSize: Int
    /// The number of the next page `scrub` sees.
    private var nextPage: Int = 0
    /// Pages of an overflow value still to skip.
    private var overflowLeft: Int = 0
    /// Free bytes zeroed so far.
    package private(set) var zeroedBytes: Int = 0

    // LMDB 0.9's page header (`MDB_page`, 64-bit, in the machine's byte order): page number (8 bytes), pad (2),
    // flags (2), lower and upper (2 each) or an overflow run's page count (4).
    private static let flagsOffset = 10, lowerOffset = 12, upperOffset = 14, overflowPagesOffset = 12, headerSize = 16
    private static let branch: UInt16 = 0x01, leaf: UInt16 = 0x02, overflow: UInt16 = 0x04, meta: UInt16 = 0x08, leaf2: UInt16 = 0x20

    /// A scrubber for a file of `pageSize`-byte pages, or nil when this build cannot read its pages safely: an
    /// LMDB other than 0.9 (whose header layout this knows), not 64-bit, or a page size LMDB does not use.
    package init?(pageSize: Int) {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        _ = mdb_version(&major, &minor, &patch)
        guard major == 0, minor == 9, MemoryLayout<Int>.size == 8,
              pageSize >= 512, pageSize <= 1 << 16, pageSize & (pageSize - 1) == 0 else { return nil }
        self.pageSize = pageSize
    }

    /// Scrubs the next pages of the file, in place. `pages` must hold whole pages (its size a multiple of
    /// `pageSize`) except for the file's last piece, whose partial page (none in an LMDB file) is left alone.
    package mutating func scrub(_ pages: UnsafeMutableRawBufferPointer) {
        var offset = 0
        while offset + pageSize <= pages.count {
            defer { offset += pageSize; nextPage += 1 }
            if overflowLeft > 0 {
                overflowLeft -= 1
                continue
            }
            let number = pages.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let flags = pages.loadUnaligned(fromByteOffset: offset + Self.flagsOffset, as: UInt16.self)
            guard number == UInt64(nextPage), flags & Self.meta == 0 else { continue }
            if flags & Self.overflow != 0 {
                let count = Int(pages.loadUnaligned(fromByteOffset: offset + Self.overflowPagesOffset, as: UInt32.self))
                overflowLeft = max(count, 1) - 1
                continue
            }
            guard flags & (Self.branch | Self.leaf) != 0, flags & Self.leaf2 == 0 else { continue }
            let lower = Int(pages.loadUnaligned(fromByteOffset: offset + Self.lowerOffset, as: UInt16.self))
            let upper = Int(pages.loadUnaligned(fromByteOffset: offset + Self.upperOffset, as: UInt16.self))
            guard Self.headerSize <= lower, lower <= upper, upper <= pageSize else { continue }
            if upper > lower {
                (pages.baseAddress! + offset + lower).initializeMemory(as: UInt8.self, repeating: 0, count: upper - lower)
                zeroedBytes += upper - lower
            }
        }
    }
}
