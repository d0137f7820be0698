import Projections

/// The views at a past point (`ViewStore.past`): the history read at the last window ending at or before the point
/// (`HistoryReader`), under the writes of the events after that end, held in memory (`WriteBehind`, one per view,
/// so a view failing on an event undoes its own writes alone). Projectors fold those events into it; readers read
/// it. Not thread-safe.
final class PastKeyValueStore: KeyValueStore {
    /// The history at the window, bound to a read transaction while a batch folds or a reader reads.
    var base: HistoryReader?
    /// The held writes of each table, by table name (the tables of the views this store may write).
    private let held: [String: WriteBehind]

    init(held: [String: WriteBehind], base: HistoryReader? = nil) {
        self.held = held
        self.base = base
    }

    private var history: HistoryReader {
        guard let b = base else { preconditionFailure("a past view was read outside a views transaction") }
        return b
    }

    func get(_ table: String, _ key: [UInt8]) throws -> [UInt8]? {
        if let h = held[table] {
            switch h.lookup(table, key) {
            case .value(let v): return v
            case .deleted: return nil
            case .notHere: break
            }
        }
        return try history.get(table, key)
    }

    func put(_ table: String, _ key: [UInt8], _ value: [UInt8]) throws {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { try put(table, k, $0) } }
    }

    func put(_ table: String, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        guard let h = held[table] else { throw ViewError.unknownTable(table) }
        h.write(table, key, value)
    }

    func delete(_ table: String, _ key: [UInt8]) throws { try key.withUnsafeBytes { try delete(table, $0) } }

    func delete(_ table: String, _ key: UnsafeRawBufferPointer) throws {
        guard let h = held[table] else { throw ViewError.unknownTable(table) }
        h.write(table, key, nil)
    }

    func scan(_ table: String, from start: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try scanBorrowed(table, from: start) { k, v in try body(Array(k), Array(v)) }
    }

    func scanBorrowed(_ table: String, from start: [UInt8],
                      _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        let entries = held[table]?.entries(table, from: start) ?? .none
        let history = history
        try HeldEntries.mergedScan(entries, base: { try history.scanBorrowed(table, from: start, $0) }, body)
    }
}
