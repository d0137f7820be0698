import Foundation
import Glibc

/// One sorted run of table changes spilled to a file by a generation being built (`SpilledRuns`): for each table,
/// its changes in key order, each entry `keyLength (UInt16) ‖ flag (UInt8: 1 a value, 0 deleted) ‖ valueLength
/// (UInt32) ‖ key ‖ value`, little-endian. In memory it keeps, per table, the file range of its section and the
/// first key and offset of each ~4 KiB block of it, so a lookup reads one block.
///
/// The file is this process's own (a 0600 file in the 0700 folder of a build): it is read back with every length
/// checked against what was read, and a mismatch is an error, never a read past a buffer.
/// Written by the writing thread between batches and only read while a batch folds, so its stored properties skip
/// Swift's run-time exclusivity checks (`@exclusivity(unchecked)`, docs/architecture.md "Exclusivity checks").
final class SpillRun: @unchecked Sendable {
    /// A table's part of the run.
    struct Section {
        var start = 0
        var end = 0
        var blocks: [Block] = []
        var entries = 0
    }

    /// Where a block of a section starts and its first key.
    struct Block {
        var offset: Int
        var firstKey: [UInt8]
    }

    /// What a lookup found.
    enum Found {
        case value([UInt8])
        case deleted
    }

    /// The bytes a block spans (a block ends at the first entry that ends past this many bytes from its start).
    static let blockBytes = 4_096
    /// The longest key a run takes (LMDB's keys are at most 511 bytes).
    static let maxKeyBytes = Int(UInt16.max)
    /// The bytes before each entry's key.
    static let entryHeader = 7

    let path: String
    @exclusivity(unchecked) private(set) var sections: [Int: Section] = [:]
    @exclusivity(unchecked) private(set) var bytes = 0
    private var fd: Int32
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var writing: (table: Int, section: Section, blockStart: Int)?

    /// Creates the run's file at `path` (it must not exist).
    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ViewError.spillFailed("creating the spill run \(path)", errno: errno) }
        buffer.reserveCapacity(1 << 18)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Starts the section of table `table` (each table once per run); its entries follow in key order.
    func begin(table: Int) throws {
        precondition(sections[table] == nil && writing == nil, "a table's section written twice, or two at once")
        writing = (table, Section(start: bytes, end: bytes), bytes)
    }

    /// Appends the change of `key` (in key order within the section) to `value` (nil: deleted).
    func append(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer?) throws {
        guard let blockStart = writing?.blockStart, let noBlock = writing?.section.blocks.isEmpty else {
            preconditionFailure("an entry outside a section")
        }
        guard key.count <= SpillRun.maxKeyBytes, (value?.count ?? 0) <= Int(UInt32.max) else {
            throw ViewError.damaged("\(path): a change of \(key.count) key bytes and \(value?.count ?? 0) value bytes is too big to spill")
        }
        // The section is changed where it lies (a copy of it held its block list twice, so adding a block copied it).
        if noBlock || bytes - blockStart >= SpillRun.blockBytes {
            writing!.section.blocks.append(Block(offset: bytes, firstKey: Array(key)))
            writing!.blockStart = bytes
        }
        let size = SpillRun.entryHeader + key.count + (value?.count ?? 0)
        if buffer.count + size > buffer.capacity && !buffer.isEmpty { try flush() }
        // Header, key and value appended as bytes (2026-11-29: `size` zeros appended first and written over cost
        // ~100 instructions an entry more).
        withUnsafeBytes(of: UInt16(key.count).littleEndian) { buffer.append(contentsOf: $0) }
        buffer.append(value == nil ? 0 : 1)
        withUnsafeBytes(of: UInt32(value?.count ?? 0).littleEndian) { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: key)
        if let value { buffer.append(contentsOf: value) }
        bytes += size
        writing!.section.entries += 1
    }

    /// Ends the section begun last.
    func end() throws {
        guard var w = writing else { preconditionFailure("no section to end") }
        w.section.end = bytes
        if w.section.entries > 0 { sections[w.table] = w.section }
        writing = nil
    }

    /// Writes what is buffered to the file.
    func flush() throws {
        var done = 0
        try buffer.withUnsafeBytes { b in
            while done < b.count {
                let n = write(fd, b.baseAddress! + done, b.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ViewError.spillFailed("writing the spill run \(path)", errno: errno)
                }
                done += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Ends the writing: what is buffered goes to the file and the buffer's memory is freed.
    func seal() throws {
        precondition(writing == nil, "a section left open")
        try flush()
        buffer = []
    }

    /// Removes the run's file.
    func remove() {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(path)
    }

    /// Fills `out` with the bytes at `offset`.
    func read(at offset: Int, into out: UnsafeMutableRawBufferPointer) throws {
        var done = 0
        while done < out.count {
            let n = pread(fd, out.baseAddress! + done, out.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw ViewError.spillFailed("reading the spill run \(path)", errno: errno)
            }
            if n == 0 { throw ViewError.damaged("\(path): the spill run ends at \(offset + done), before \(offset + out.count)") }
            done += n
        }
    }

    /// The entry at `at` in `bytes` (whole entries read from this run): its key, its value (nil: deleted) and where
    /// the next one starts. Every length is checked against `bytes`: a damaged file is an error, not a read past it.
    func entry(in bytes: UnsafeRawBufferPointer, at: Int) throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer?, next: Int) {
        guard bytes.count - at >= SpillRun.entryHeader else { throw ViewError.damaged("\(path): a spill entry cut short") }
        let k = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
        let flag = bytes[at + 2]
        let v = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 3, as: UInt32.self)))
        let start = at + SpillRun.entryHeader
        guard flag <= 1, bytes.count - start >= k, bytes.count - start - k >= v else {
            throw ViewError.damaged("\(path): a spill entry runs past its block")
        }
        let key = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + k)])
        let value = flag == 1 ? UnsafeRawBufferPointer(rebasing: bytes[(start + k)..<(start + k + v)]) : nil
        return (key, value, start + k + v)
    }

    /// The index of the last block of `section` whose first key is at most `key` (nil: `key` is before them all).
    private static func block(_ section: Section, atMost key: UnsafeRawBufferPointer) -> Int? {
        var lo = 0, hi = section.blocks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if key.lexicographicallyPrecedes(section.blocks[mid].firstKey) { hi = mid } else { lo = mid + 1 }
        }
        return lo == 0 ? nil : lo - 1
    }

    /// The change of `key` in table `table` this run holds, or nil: one block read (into a temporary buffer, not a
    /// heap array per lookup).
    func lookup(table: Int, _ key: UnsafeRawBufferPointer) throws -> Found? {
        guard let s = sections[table], let i = SpillRun.block(s, atMost: key) else { return nil }
        let start = s.blocks[i].offset
        let end = i + 1 < s.blocks.count ? s.blocks[i + 1].offset : s.end
        return try withUnsafeTemporaryAllocation(byteCount: end - start, alignment: 8) { buffer -> Found? in
            try read(at: start, into: buffer)
            let bytes = UnsafeRawBufferPointer(buffer)
            var at = 0
            while at < bytes.count {
                let e = try entry(in: bytes, at: at)
                if SpilledRuns.equal(e.key, key) { return e.value.map { .value(Array($0)) } ?? .deleted }
                if !SpilledRuns.precedes(e.key, key) { return nil }
                at = e.next
            }
            return nil
        }
    }

    /// The first block to read for keys from `start`.
    static func firstBlock(_ section: Section, from start: [UInt8]) -> Int {
        start.withUnsafeBytes { block(section, atMost: $0) } ?? 0
    }
}
