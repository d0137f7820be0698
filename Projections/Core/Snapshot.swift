import EventModel

/// Typed reads of the views over one consistent snapshot (one read transaction): what projector readers
/// are built on. A snapshot is valid only inside the closure that handed it out.
package struct Snapshot {
    /// The storage read.
    package let reader: KeyValueReader

    /// A snapshot over `reader`.
    package init(_ reader: KeyValueReader) { self.reader = reader }

    /// The value under `key` in `table`, or nil.
    package func get<V>(_ table: Table<V>, _ key: [UInt8]) throws -> V? {
        try reader.withValue(table.name, key) { buf in
            var r = ByteReader(buf)
            return try V(from: &r)
        }
    }

    /// Calls `body` with each entry of `table` whose key starts with `prefix` (from `start` when given),
    /// in key order, until it returns false.
    package func scan<V>(_ table: Table<V>, prefix: [UInt8], from start: [UInt8]? = nil,
                        _ body: ([UInt8], V) throws -> Bool) throws {
        try reader.scan(table.name, from: start ?? prefix) { key, raw in
            guard key.starts(with: prefix) else { return false }
            let v = try raw.withUnsafeBytes { buf in
                var r = ByteReader(buf)
                return try V(from: &r)
            }
            return try body(key, v)
        }
    }

    /// Every entry of `table` whose key starts with `prefix`, in key order (at most `limit`).
    package func prefixed<V>(_ table: Table<V>, _ prefix: [UInt8], limit: Int = .max) throws -> [([UInt8], V)] {
        var out: [([UInt8], V)] = []
        guard limit > 0 else { return out }
        try scan(table, prefix: prefix) { k, v in
            out.append((k, v))
            return out.count < limit
        }
        return out
    }
}
