/// A table's entries in one spilled run (`SpillRun`) from a start key on, in key order, read a few blocks at a
/// time (at most `SpillCursor.blocksPerRead` blocks held).
struct SpillCursor: ChangeCursor {
    /// Blocks read at once (~64 KiB).
    static let blocksPerRead = 16

    private let run: SpillRun
    private let section: SpillRun.Section?
    private let start: [UInt8]
    private var nextBlock: Int
    private var held: [(key: [UInt8], value: [UInt8]?)] = []
    private var at = 0

    init(run: SpillRun, section: SpillRun.Section?, from start: [UInt8]) {
        self.run = run
        self.section = section
        self.start = start
        nextBlock = section.map { SpillRun.firstBlock($0, from: start) } ?? 0
    }

    var key: [UInt8]? { at < held.count ? held[at].key : nil }
    var value: [UInt8]? { held[at].value }

    /// Reads the first entry at least the start key (call once before reading `key`).
    mutating func load() throws {
        try refill()
        while let k = key, k.lexicographicallyPrecedes(start) { try advance() }
    }

    mutating func advance() throws {
        at += 1
        if at >= held.count { try refill() }
    }

    private mutating func refill() throws {
        held = []
        at = 0
        guard let section else { return }
        while held.isEmpty && nextBlock < section.blocks.count {
            let end = min(section.blocks.count, nextBlock + SpillCursor.blocksPerRead)
            held = try run.entries(of: section, blocks: nextBlock..<end)
            nextBlock = end
        }
    }
}
