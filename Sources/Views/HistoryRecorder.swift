import LMDB

/// Records a fold's writes in the views' history (`ViewHistory`), in the same transaction: a live fold's in the open
/// window by appending the key to the change log (`ChangeLog`: its value is written as a version when the window
/// closes); any other (a
/// generation being built, a view folded again into closed windows) written to the table's history table at once,
/// as the key's version for the window the running batch writes in (or held with the fold's other writes,
/// `WriteBehind`). One per fold store; not thread-safe.
final class HistoryRecorder {
    /// Each view table's history table, by the view table's name.
    private let tables: [String: Database]
    /// The window the running batch's writes belong to (set for each transaction, `ViewHistory.window(for:)`).
    var window: UInt32 = 0
    /// Where the running batch's writes go instead, when they belong to the open window of live views.
    var log: ChangeLog?
    /// For a view of a generation being built (`LMDBKeyValueStore.stagesHistory`): its writes are held with the fold's
    /// other writes and go out as a staged run of their window's versions (`ViewStore.writeOut`): nothing is recorded
    /// here.
    let deferred: Bool

    init(tables: [String: Database], deferred: Bool = false) {
        self.tables = tables
        self.deferred = deferred
    }
    /// The bytes of versions recorded since `bytes` was last reset (keys and values).
    var bytes = 0
    private var key: [UInt8] = []
    private var value: [UInt8] = []
    /// The table recorded last, with its history table's name and database.
    private var last: (table: String, name: String, database: Database)?


    /// Records that `table`'s `key` now holds `value` (nil: deleted).
    func record(_ table: String, _ k: UnsafeRawBufferPointer, _ v: UnsafeRawBufferPointer?,
                scope: @autoclosure () -> TransactionScope, writeBehind: WriteBehind?) throws {
        precondition(window > 0, "a view was written before its batch's history window was set")
        if deferred {
            // Staged from the held table changes (`ViewStore.writeOut`).
            bytes += k.count + HistoryKey.windowBytes + 2 + 1 + (v?.count ?? 0)
            return
        }
        if let log {
            log.append(table: table, key: k)
            // What a look at a past point would hold of it: the key and value, as a version.
            bytes += k.count + HistoryKey.windowBytes + 2 + 1 + (v?.count ?? 0)
            return
        }
        let target: (table: String, name: String, database: Database)
        if let last, last.table == table {
            target = last
        } else {
            guard let d = tables[table] else { throw ViewError.unknownTable(ViewHistory.table(table)) }
            target = (table, ViewHistory.table(table), d)
            last = target
        }
        let cut = HistoryKey.encode(k, window: window, into: &key)
        let size = HistoryValue.size(key: k, cut: cut, value: v)
        bytes += key.count + size
        if let writeBehind {
            value.removeAll(keepingCapacity: true)
            value.append(contentsOf: repeatElement(0, count: size))
            value.withUnsafeMutableBytes { HistoryValue.write(key: k, cut: cut, value: v, into: $0) }
            key.withUnsafeBytes { kb in value.withUnsafeBytes { writeBehind.write(target.name, kb, $0) } }
        } else {
            let out = try key.withUnsafeBytes { try scope().reserve(target.database, $0, size: size) }
            HistoryValue.write(key: k, cut: cut, value: v, into: out)
        }
    }
}
