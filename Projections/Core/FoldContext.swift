/// What a projector folds into: the store, and the tables the projector opened on it.
///
/// A projector opens each of its tables with `table(_:)` in its initializer; the context writes them all
/// at the end of a batch and drops them all after an aborted one, so no table can be forgotten, and the
/// list of a view's tables is known from its initializer alone.
package final class FoldContext {
    let store: KeyValueStore
    private var tables: [OpenedTable] = []

    /// A context over `store`.
    package init(store: KeyValueStore) { self.store = store }

    /// Whether a projector may write its tables before the batch ends, to bound its caches (`flush` between
    /// parts of a big recompute). Off while events are folded one by one after a failure: an event that fails
    /// there has all its changes dropped, which a part already written would defeat.
    package var writesInParts = true

    /// Opens `table` for the fold.
    package func table<Value>(_ table: Table<Value>) -> ViewTable<Value> {
        let t = ViewTable<Value>(table.name, store: store)
        tables.append(OpenedTable(t))
        return t
    }

    /// The names of the tables opened, in order.
    package var tableNames: [String] { tables.map(\.name) }

    /// Writes every table's cached changes to the store.
    package func flush() throws {
        for t in tables { try t.flush() }
    }

    /// Encodes every table's cached changes in key order without touching the store (on the thread that
    /// folded them; `flush()` then only writes).
    package func encode() {
        for t in tables { t.encode() }
    }

    /// Drops every table's cached changes (the transaction they were meant for was aborted).
    package func discard() {
        for t in tables { t.discard() }
    }

    /// The bytes the tables' (emptied) caches keep allocated for their next batch.
    package var cacheBytes: Int { tables.reduce(0) { $0 + $1.cacheBytes() } }

    /// Lets each table keep its emptied cache's room while `budget` (bytes) covers it, taken from `budget`;
    /// the others free theirs. Call on emptied caches (after `flush` or `discard`).
    package func trimCaches(budget: inout Int) {
        for t in tables {
            let bytes = t.cacheBytes()
            if bytes <= budget {
                budget -= bytes
            } else {
                t.freeCache()
            }
        }
    }
}

/// A table with a write-back cache (a `ViewTable` of any value type), through closures made where its value type is
/// known. Why not a protocol: a generic class's conformance is one unspecialized witness for every value type, which
/// asks Swift's runtime for the type metadata of the table's dictionary, its entries and their tuples at each call (a
/// locked lookup); a single thread action spent ~19% of its CPU in `ViewTable.encode` that way (profile, 2026-12-01).
/// `FoldContext.table(_:)` is specialized for each projector's value types, and so are the closures it makes here.
struct OpenedTable {
    let name: String
    let flush: () throws -> Void
    let encode: () -> Void
    let discard: () -> Void
    let cacheBytes: () -> Int
    let freeCache: () -> Void

    @inline(__always)
    init<Value>(_ t: ViewTable<Value>) {
        name = t.name
        flush = { try t.flush() }
        encode = { t.encode() }
        discard = { t.discard() }
        cacheBytes = { t.cacheBytes }
        freeCache = { t.freeCache() }
    }
}
