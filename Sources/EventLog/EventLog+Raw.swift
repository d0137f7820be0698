import LMDB

extension EventLog {
    /// Calls `body` with every record of the snapshot `txn` sees, raw, in sequence order: for tools
    /// that must see one snapshot whole (isolation tests, benchmarks).
    public func withEventsCursor(_ txn: borrowing Transaction,
                                 _ body: (UInt64, UnsafeRawBufferPointer) throws -> Void) throws {
        try txn.withCursor(events) { c in
            var entry = try c.first()
            while let e = entry {
                try body(EventLog.decodeSequence(e.key), e.value)
                entry = try c.next()
            }
        }
    }
}
