import EventModel
import LMDB
import Projections

extension ViewStore {
    /// One page of a thread listing from the index: rows after `after` (date, thread id), newest first,
    /// at most `limit`, and whether more follow. One short read transaction.
    public func threadPage(scope: String, folder: String, category: AICategory?, after: (Timestamp, String)?,
                           limit: Int) throws -> (threads: [ThreadRow], hasMore: Bool) {
        let prefix = ThreadsProjector.indexPrefix(scope: scope, folder: folder, category: category).bytes
        var start = prefix
        if let (date, id) = after {
            start = ThreadsProjector.indexKey(scope: scope, folder: folder, category: category, date: date, thread: id)
            start.append(0) // strictly after the cursor's own key
        }
        let index = databases["threads.index"]!, threads = databases["threads.rows"]!
        return try environment.read { txn in
            var out: [ThreadRow] = []
            var hasMore = false
            try txn.withCursor(index) { c in
                var entry = try start.withUnsafeBytes { try c.seek(atLeast: $0) }
                while let e = entry, e.key.starts(with: prefix) {
                    if out.count == limit {
                        hasMore = true
                        break
                    }
                    var r = KeyReader(Array(e.key))
                    _ = r.string(); _ = r.string(); _ = r.string(); _ = r.descending()
                    let id = r.string()
                    if let raw = try Key(id).bytes.withUnsafeBytes({ try txn.get(threads, key: $0) }) {
                        var br = ByteReader(raw)
                        out.append(try ThreadRow(from: &br))
                    }
                    entry = try c.next()
                }
            }
            return (out, hasMore)
        }
    }

    /// A thread by id.
    public func thread(id: String) throws -> ThreadRow? {
        let rows = databases["threads.rows"]!
        return try environment.read { txn in
            guard let raw = try Key(id).bytes.withUnsafeBytes({ try txn.get(rows, key: $0) }) else { return nil }
            var br = ByteReader(raw)
            return try ThreadRow(from: &br)
        }
    }

    /// Every entry of `table`, in key order (for comparisons and tools).
    public func entries(of table: String, _ body: ([UInt8], [UInt8]) throws -> Void) throws {
        guard let db = databases[table] else { throw ViewError.unknownView(table) }
        try environment.read { txn in
            try txn.withCursor(db) { c in
                var e = try c.first()
                while let entry = e {
                    try body(Array(entry.key), Array(entry.value))
                    e = try c.next()
                }
            }
        }
    }
}
