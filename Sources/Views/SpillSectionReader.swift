import Glibc

/// Reads one table's section of a spilled run (`SpillRun`) from its start, in order, a few blocks at a time into a
/// buffer of its own, for a merge (`SpilledRuns.merge`): the current entry's key and value are pointers into that
/// buffer, valid until `advance()`. No allocation per entry.
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

    init(run: SpillRun, section: SpillRun.Section) throws {
        self.run = run
        self.section = section
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        try advance()
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
        let b = UnsafeRawBufferPointer(buffer)
        guard filled - at >= SpillRun.entryHeader else { throw ViewError.damaged("\(run.path): a spill entry cut short") }
        let k = Int(UInt16(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
        let flag = b[at + 2]
        let v = Int(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at + 3, as: UInt32.self)))
        let start = at + SpillRun.entryHeader
        guard flag <= 1, filled - start >= k, filled - start - k >= v else {
            throw ViewError.damaged("\(run.path): a spill entry runs past its block")
        }
        key = UnsafeRawBufferPointer(rebasing: b[start..<(start + k)])
        value = flag == 1 ? UnsafeRawBufferPointer(rebasing: b[(start + k)..<(start + k + v)]) : nil
        at = start + k + v
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
