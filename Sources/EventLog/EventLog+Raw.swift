import EventModel
import LMDB
import NativeCodecs

extension EventLog {
    /// Calls `body` with every record of the snapshot `txn` sees, raw, in sequence order: for tools
    /// that must see one snapshot whole (isolation tests, benchmarks).
    package func withEventsCursor(_ txn: borrowing Transaction,
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
    /// read transaction (the buffers are valid only during the call): first the blobs of formats 1 and 2
    /// (`numbered` false, keyed by hash), then the numbered ones (`numbered` true, keyed by number).
    /// The transaction is given too, for lookups in the same snapshot.
    func forEachBlob(chunk: Int = 256,
                     _ body: (_ numbered: Bool, borrowing Transaction, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        try forEachEntry(of: blobs, chunk: chunk) { try body(false, $0, $1, $2) }
        if let blobData { try forEachEntry(of: blobData, chunk: chunk) { try body(true, $0, $1, $2) } }
    }

    /// Calls `body` with every key and value of `db` (after the key `after`, when given), in key order, reading
    /// `chunk` entries per short read transaction (the transaction and the buffers are valid only during the call).
    func forEachEntry(of db: Database, chunk: Int = 256, after start: [UInt8]? = nil,
                      _ body: (borrowing Transaction, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        var after: [UInt8]? = start
        while true {
            var count = 0
            try environment.read { txn in
                try txn.withCursor(db) { c in
                    var entry: Cursor.Entry?
                    if let a = after {
                        entry = try a.withUnsafeBytes { try c.seek(atLeast: $0) }
                        if let e = entry, e.key.elementsEqual(a) { entry = try c.next() }
                    } else {
                        entry = try c.first()
                    }
                    while let e = entry, count < chunk {
                        // Keys come sorted (LMDB's order: bytes, then length); one that does not is a damaged page,
                        // and seeking past it again would walk the same entries forever.
                        if let a = after, !EventLog.sortsAfter(e.key, a) {
                            throw EventLogError.corruptRecord(sequence: 0, reason: "the log file is damaged: a key of \(db.name) out of order (run `mailstore verify`; restore the log from a backup, docs/operations.md)")
                        }
                        try body(txn, e.key, e.value)
                        after = Array(e.key)
                        count += 1
                        entry = try c.next()
                    }
                }
            }
            // The pages read go from this process's resident size (they stay in the page cache).
            environment.releaseResidentPages(over: Environment.residentFileBudget)
            if count < chunk { return }
        }
    }

    /// Whether `key` sorts after `previous` in LMDB's default order (bytes compared, then the shorter first).
    static func sortsAfter(_ key: UnsafeRawBufferPointer, _ previous: [UInt8]) -> Bool {
        for (a, b) in zip(key, previous) where a != b { return a > b }
        return key.count > previous.count
    }

    /// Calls `body` with every record from sequence `from` up to `end`, in order, reading `chunk` records per
    /// short read transaction, until `body` returns false: the transaction (for index lookups), the key and the
    /// record, valid only during the call. `progress` gets the number of records walked after each transaction.
    func forEachRecord(from: UInt64 = 1, through end: UInt64, chunk: Int = 1024, progress: ((UInt64) -> Void)? = nil,
                       _ body: (borrowing Transaction, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        var next = max(from, 1)
        var walked: UInt64 = 0
        var key = [UInt8](repeating: 0, count: 8)
        var done = end < next
        while !done {
            EventLog.encodeSequence(next, into: &key)
            try environment.read { txn in
                try txn.withCursor(events) { c in
                    var entry = try key.withUnsafeBytes { try c.seek(atLeast: $0) }
                    var n = 0
                    while let e = entry, n < chunk {
                        let seq = e.key.count == 8 ? EventLog.decodeSequence(e.key) : next
                        if seq > end { break }
                        guard seq >= next else { throw EventLog.outOfOrder(seq, after: next) }
                        let ahead = c.nextAhead()
                        let goOn = try body(txn, e.key, e.value)
                        next = seq + 1
                        walked += 1
                        n += 1
                        guard goOn else {
                            done = true
                            return
                        }
                        entry = try ahead.get()
                    }
                    if entry == nil || next > end { done = true }
                    if let e = entry, e.key.count == 8, EventLog.decodeSequence(e.key) > end { done = true }
                }
            }
            // Each record read maps its page, and its 64 KiB neighbourhood where the kernel's fault-around is on
            // (a read-only open, as `verify`'s): released after every chunk, so at most ~`chunk` × 64 KiB stay resident.
            environment.releaseResidentPages(over: Environment.residentFileBudget)
            progress?(walked)
        }
    }

    /// The chain hash of `record` at `sequenceKey` after `previous`, written into `out`:
    /// - format 2: SHA-256(previous ‖ sequence ‖ SHA-256(record bytes 0..<2 ‖ record bytes 34...));
    /// - format 1 (and a record too damaged to name its format): SHA-256(previous ‖ sequence ‖ record bytes 0..<2 ‖
    ///   record bytes 34...).
    static func chainHash(previous: [UInt8], sequenceKey: [UInt8], record: UnsafeRawBufferPointer,
                          hasher: SHA256Hasher, into out: inout [UInt8]) {
        previous.withUnsafeBytes { p in
            sequenceKey.withUnsafeBytes { k in
                out.withUnsafeMutableBytes { chainHash(previous: p, sequenceKey: k, record: record, hasher: hasher, into: $0) }
            }
        }
    }

    /// `chainHash` over borrowed bytes; `out` takes the 32-byte hash.
    static func chainHash(previous: UnsafeRawBufferPointer, sequenceKey: UnsafeRawBufferPointer,
                          record: UnsafeRawBufferPointer, hasher: SHA256Hasher, into out: UnsafeMutableRawBufferPointer) {
        if record.first == RecordCodec.digestChainFormat {
            withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { digest in
                recordDigest(record, hasher: hasher, into: digest)
                chainHash(previous: previous, sequenceKey: sequenceKey, digest: UnsafeRawBufferPointer(digest),
                          hasher: hasher, into: out)
            }
            return
        }
        hasher.reset()
        hasher.update(previous)
        hasher.update(sequenceKey)
        updateWithoutHash(hasher, record)
        hasher.finish(into: out)
    }

    /// Feeds `record` but its chain hash field into `hasher`: bytes 0..<2 and 34... (as far as the record goes).
    private static func updateWithoutHash(_ hasher: SHA256Hasher, _ record: UnsafeRawBufferPointer) {
        hasher.update(UnsafeRawBufferPointer(rebasing: record[0..<min(2, record.count)]))
        if record.count > RecordCodec.hashRange.upperBound {
            hasher.update(UnsafeRawBufferPointer(rebasing: record[RecordCodec.hashRange.upperBound...]))
        }
    }

    /// A format 2 record's digest: SHA-256(record bytes 0..<2 ‖ record bytes 34...), everything but its chain
    /// hash. It needs no other record, so it is computed where the record is encoded (on either encoding
    /// thread); the writing thread then hashes 72 bytes per record in sequence instead of the whole record.
    static func recordDigest(_ record: UnsafeRawBufferPointer, hasher: SHA256Hasher, into out: UnsafeMutableRawBufferPointer) {
        hasher.reset()
        updateWithoutHash(hasher, record)
        hasher.finish(into: out)
    }

    /// A format 2 record's chain hash from `link`, the 72 bytes previous hash ‖ sequence ‖ digest laid out in
    /// order: hashed in one call (the writer's loop keeps them so).
    static func chainHash(link: UnsafeRawBufferPointer, hasher: SHA256Hasher, into out: UnsafeMutableRawBufferPointer) {
        hasher.reset()
        hasher.update(link)
        hasher.finish(into: out)
    }

    /// A format 2 record's chain hash from its digest: SHA-256(previous ‖ sequence ‖ digest).
    static func chainHash(previous: UnsafeRawBufferPointer, sequenceKey: UnsafeRawBufferPointer,
                          digest: UnsafeRawBufferPointer, hasher: SHA256Hasher, into out: UnsafeMutableRawBufferPointer) {
        hasher.reset()
        hasher.update(previous)
        hasher.update(sequenceKey)
        hasher.update(digest)
        hasher.finish(into: out)
    }
}
