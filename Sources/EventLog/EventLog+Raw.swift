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

    /// Calls `body` with every blob's key and stored bytes, in key order, reading `chunk` blobs per short
    /// read transaction (the buffers are valid only during the call).
    func forEachBlob(chunk: Int = 256, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        var after: [UInt8]? = nil
        while true {
            var count = 0
            try environment.read { txn in
                try txn.withCursor(blobs) { c in
                    var entry: Cursor.Entry?
                    if let a = after {
                        entry = try a.withUnsafeBytes { try c.seek(atLeast: $0) }
                        if let e = entry, e.key.elementsEqual(a) { entry = try c.next() }
                    } else {
                        entry = try c.first()
                    }
                    while let e = entry, count < chunk {
                        try body(e.key, e.value)
                        after = Array(e.key)
                        count += 1
                        entry = try c.next()
                    }
                }
            }
            if count < chunk { return }
        }
    }
}
