/// A table's entries in one spilled run (`SpillRun`) from a start key on, in key order, as a `ChangeCursor` for a
/// scan (`SpilledRuns.cursor`): a `SpillSectionReader` whose key and value are copied out when asked (a fold scans
/// rarely: a folder's role changing).
struct SpillCursor: ChangeCursor {
    private let reader: SpillSectionReader?

    init(_ reader: SpillSectionReader?) { self.reader = reader }

    var key: [UInt8]? { reader?.key.map { Array($0) } }
    var value: [UInt8]? { reader?.value.map { Array($0) } }
    mutating func advance() throws { try reader?.advance() }
}
