/// Changes of a table in key order, read one at a time: a layer over its B-tree (the writes held behind, a spilled
/// run). A nil `value` is a deletion.
protocol ChangeCursor {
    /// The current entry's key, nil past the last.
    var key: [UInt8]? { get }
    /// The current entry's value (nil: deleted); only while `key` is not nil.
    var value: [UInt8]? { get }
    /// Moves to the next entry.
    mutating func advance() throws
}
