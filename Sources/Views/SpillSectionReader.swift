import Glibc

/// Reads one table's section of a spilled run (`SpillRun`) in key order from a start key, a few blocks at a time into a
/// buffer of its own, for a merge (`SpilledRuns.forEachMerged`) or a scan (`SpillCursor`): the current entry's key and
/// value are pointers into that buffer, valid until `advance()`. No allocation per entry.
final class SpillSectionReader {
    private let run: SpillRun
    private let section: SpillRun.Section
    private var nextBlock = 0
    private var buffer: UnsafeMutableRawBufferPointer
    private var filled = 0
    private var at = 0
    /// The current entry: where its key and value lie in the buffer (value nil: deleted).
    private(set) var key: UnsafeRawBufferPointer?
    private(set) var value: UnsafeRawBufferPointer?

    /// A reader at the first entry of `section` whose key is at least `start` (empty: its first entry).
    init(run: SpillRun, section: SpillRun.Section, from start: [UInt8] = []) throws {
        self.run = run
        self.section = section
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        if !start.isEmpty { nextBlock = SpillRun.firstBlock(section, from: start) }
        try advance()
        while let k = key, !start.isEmpty, start.withUnsafeBytes({ SpilledRuns.precedes(k, $0) }) { try advance() }
    }

    deinit { buffer.deallocate() }

    /// Moves to the next entry (`key` nil past the last).
    func advance() throws {
        if at >= filled {
            try refill()
            if filled == 0 {
                key = nil
                value = nil
                return
            }
        }
        let e = try run.entry(in: UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), at: at)
        key = e.key
        value = e.value
        at = e.next
    }

    /// Reads the next blocks: whole blocks, at least one, as many as fit the buffer (grown for one bigger block).
    private func refill() throws {
        filled = 0
        at = 0
        guard nextBlock < section.blocks.count else { return }
        let start = section.blocks[nextBlock].offset
        var end = start
        var last = nextBlock
        while last < section.blocks.count {
            let blockEnd = last + 1 < section.blocks.count ? section.blocks[last + 1].offset : section.end
            if last > nextBlock && blockEnd - start > buffer.count { break }
            end = blockEnd
            last += 1
        }
        if end - start > buffer.count {
            buffer.deallocate()
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: end - start, alignment: 8)
        }
        try run.read(at: start, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(end - start)]))
        filled = end - start
        nextBlock = last
    }
}
