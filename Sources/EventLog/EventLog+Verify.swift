import EventModel
import LMDB
import NativeCodecs

extension EventLog {
    /// Walks the whole log and checks it: sequences gap-free from 1, every record's chain hash, every
    /// record and payload decodes, the id index and the stream index agree with the records, the head
    /// hash in meta matches, and every blob matches its SHA-256. Reads in short transactions up to the
    /// head as it was when the walk began.
    package func verify(checkBlobs: Bool = true, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> VerifyReport {
        var report = VerifyReport()
        // The head is the walk's end: when meta cannot be read, nothing after can be trusted, and that is the finding.
        var headRead: (sequence: UInt64, hash: [UInt8])?
        if let damage = try EventLog.damage(of: { headRead = try head() }) {
            report.add(nil, "the log's head (meta) \(damage)")
            return report
        }
        guard let (end, headHash) = headRead else { return report }
        report.headSequence = end
        let hasher = try SHA256Hasher()
        let decoder = try RecordDecoder()
        var prevHash = EventLog.zeroHash
        var computed = [UInt8](repeating: 0, count: 32)
        var expected: UInt64 = 1
        // The blobs are checked on a second thread while this one walks the records: their zstd and SHA-256 are
        // about half of a verify's work. Its report joins this one's after the walk; however the walk ends, the
        // thread has ended before this returns (`cancel` waits for it).
        let blobs = checkBlobs ? ChunkFeed<VerifyReport> { emit in
            var blobReport = VerifyReport()
            try self.verifyBlobs(&blobReport)
            try emit(blobReport)
        } : nil
        defer { blobs?.cancel() }
        // The indexes are checked against the records as multisets first: the walk sums a keyed hash of each
        // record's id and stream entry (`IndexDigest`), then each index is walked in its own order and summed the
        // same way. Equal sums: every record's entries are there (the entry counts are compared below). Only where
        // they differ is each record looked up in the indexes (random pages: at 1M messages ~2/3 of a verify's
        // time was those lookups, their B-tree searches and page faults), to name the records whose entries are
        // wrong. Mapped pages are checked after every 256 records: on a 1M-message log, 512 per check peaked at
        // 163-182 MiB, 256 at 109 MiB, 128 at 103 MiB (with the lookups).
        var expectedDigest = IndexDigest()
        var lastRecordedAt: Timestamp?
        let clock = Timestamp.now
        // A damaged page can stop a walk (LMDB finds a page it cannot read, or keys out of order): that is a problem
        // found, named with where the walk got to, and the checks that do not need the walk still run.
        if let damage = try EventLog.damage(of: {
        try forEachRecord(through: end, chunk: 256, progress: { progress?($0, end) }) { txn, key, record in
            guard key.count == 8 else {
                report.add(expected, "key is \(key.count) bytes, not 8")
                return true
            }
            let seq = EventLog.decodeSequence(key)
            if seq != expected { report.add(expected, "sequence gap: next record is \(seq)") }
            check(record: record, seq: seq, txn: txn, hasher: hasher, decoder: decoder,
                  prevHash: &prevHash, computed: &computed, digest: &expectedDigest, report: &report)
            if let at = RecordCodec.recordedAt(record) {
                if let last = lastRecordedAt, at < last {
                    report.recordedTimesBack += 1
                    if report.firstRecordedTimeBack == nil { report.firstRecordedTimeBack = seq }
                }
                lastRecordedAt = at
                report.recorded(at, sequence: seq, clock: clock)
            }
            report.eventsChecked += 1
            expected = seq + 1
            return true
        }
        }) { report.add(expected, damage) }
        if let damage = try EventLog.damage(of: {
            let indexedDigest = try indexDigest(through: end)
            if indexedDigest != expectedDigest {
                report.indexesLookedUp = true
                try forEachRecord(through: end, chunk: 256) { txn, key, record in
                    guard key.count == 8, record.count >= RecordCodec.fixedSize else { return true }
                    try lookUpIndexes(record: record, seq: EventLog.decodeSequence(key), txn: txn, decoder: decoder, report: &report)
                    return true
                }
            }
        }) { report.add(nil, damage) }
        if report.eventsChecked != end { report.add(nil, "walked \(report.eventsChecked) records, head is \(end)") }
        if prevHash != headHash && report.eventsChecked == end {
            report.add(end == 0 ? nil : end, "the head hash in meta does not match the chain")
        }
        // Index counts, in one snapshot: the ids index holds exactly one entry per record.
        if let damage = try EventLog.damage(of: {
            try environment.read { txn in
                let h = try headIn(txn).sequence
                let idCount = try txn.stat(ids).entries
                if UInt64(idCount) != h { report.add(nil, "the id index has \(idCount) entries for \(h) events") }
                let streamIndexCount = try txn.stat(streamEvents).entries
                if UInt64(streamIndexCount) != h {
                    report.add(nil, "the stream index has \(streamIndexCount) entries for \(h) events")
                }
            }
        }) { report.add(nil, "counting the indexes' entries: \(damage)") }
        var blobReport: VerifyReport?
        if let damage = try EventLog.damage(of: { blobReport = try blobs?.next() }) { report.add(nil, damage) }
        if let blobReport { report.absorb(blobReport) }
        // Every indexed hash names a numbered blob and every numbered blob is indexed: with each blob's own
        // hash indexed to its number (checked by the walk), equal counts leave no other entry.
        if let blobData, let blobKeys {
            if let damage = try EventLog.damage(of: {
                let (data, keys) = try environment.read { txn in (try txn.stat(blobData).entries, try txn.stat(blobKeys).entries) }
                if data != keys { report.add(nil, "the blob index has \(keys) entries for \(data) numbered blobs") }
            }) { report.add(nil, "counting the blobs: \(damage)") }
        }
        return report
    }

    /// Runs `body`; an error that says the file is damaged (`EventLogError.corruptRecord`, or any LMDB code a damaged
    /// file can give a read: `MDB_CORRUPTED`, `MDB_PAGE_NOTFOUND`, keys out of order, bad sizes; `LMDBError.mayBeDamage`)
    /// is returned as the problem to report, any other (the process short of memory, reader slots) is thrown.
    static func damage(of body: () throws -> Void) throws -> String? {
        do {
            try body()
            return nil
        } catch let e as LMDBError where e.mayBeDamage {
            return "cannot be read on, the file is damaged: \(e)"
        } catch let e as EventLogError {
            guard case .corruptRecord(_, let reason) = e else { throw e }
            return "cannot be read on: \(reason)"
        }
    }

    private func check(record raw: UnsafeRawBufferPointer, seq: UInt64, txn: borrowing Transaction, hasher: SHA256Hasher,
                       decoder: RecordDecoder, prevHash: inout [UInt8], computed: inout [UInt8], digest: inout IndexDigest,
                       report: inout VerifyReport) {
        guard raw.count >= RecordCodec.fixedSize else {
            report.add(seq, "record is \(raw.count) bytes, shorter than its fixed header")
            return
        }
        var seqKey = [UInt8](repeating: 0, count: 8)
        EventLog.encodeSequence(seq, into: &seqKey)
        EventLog.chainHash(previous: prevHash, sequenceKey: seqKey, record: raw, hasher: hasher, into: &computed)
        let stored = Array(raw[RecordCodec.hashRange])
        let chained = stored == computed
        if !chained { report.add(seq, "chain hash mismatch: the record or its predecessor was altered") }
        // Continue the chain from the stored hash, so one damaged record is named once.
        prevHash = stored
        do {
            // Decoded in place (no copy of the payload): what matters here is that it decodes.
            let ev = try decoder.decodeTyped(raw, sequence: seq)
            if case .failure(let e) = ev.event, case .unsupportedVersion = e, chained {
                // Sound (its chain hash holds), written by a newer build: not damage, and not this build's to check.
                report.newer(seq, "\(e)")
            } else {
                _ = try ev.event.get()
            }
            seqKey.withUnsafeBytes { v in
                ev.envelope.id.bytes.withUnsafeBytes { digest.ids.add(key: $0, value: v) }
                EventLog.streamKey(ev.envelope.stream).withUTF8Buffer { digest.streams.add(key: $0, value: v) }
            }
        } catch let e as EventLogError {
            if case .corruptRecord(_, let reason) = e { report.add(seq, "does not decode: \(reason)") }
            else { report.add(seq, "\(e)") }
        } catch {
            report.add(seq, "does not decode: \(error)")
        }
    }

    /// Looks `record` (at `seq`) up in the id and stream indexes, naming it where an entry is missing or wrong:
    /// the slow check, run when the indexes' digests differ from the records'.
    private func lookUpIndexes(record raw: UnsafeRawBufferPointer, seq: UInt64, txn: borrowing Transaction,
                               decoder: RecordDecoder, report: inout VerifyReport) throws {
        // A record that does not decode was named by the first walk.
        guard let ev = try? decoder.decodeTyped(raw, sequence: seq) else { return }
        var seqKey = [UInt8](repeating: 0, count: 8)
        EventLog.encodeSequence(seq, into: &seqKey)
        do {
            let idKey = ev.envelope.id.bytes
            let indexed = try idKey.withUnsafeBytes { try txn.get(ids, key: $0) }.map(EventLog.decodeSequence)
            if indexed != seq {
                report.add(seq, "the id index maps \(ev.envelope.id) to \(indexed.map(String.init) ?? "nothing")")
            }
            let sk = EventLog.streamKey(ev.envelope.stream)
            let inStream = try sk.withUTF8Buffer { k in
                try txn.withCursor(streamEvents) { c in
                    try seqKey.withUnsafeBytes { v in try c.seek(key: k, valueAtLeast: v) }.map { EventLog.decodeSequence($0.value) == seq } ?? false
                }
            }
            if !inStream { report.add(seq, "missing from the stream index of '\(ev.envelope.stream)'") }
        } catch let e as LMDBError {
            // A damaged index page fails the transaction the walk goes on in: that ends the walk, reported as damage.
            throw e
        } catch {
            report.add(seq, "the indexes cannot be read: \(error)")
        }
    }

    /// The digests of the id and stream indexes' entries for sequences up to `end` (later ones were appended
    /// after the walk began), each index walked in its own order, `indexWalkChunk` entries (at least one) per read
    /// transaction, the next going on from the last entry seen (entries are never removed), the mapped pages
    /// released after each past the budget.
    private func indexDigest(through end: UInt64) throws -> IndexDigest {
        var digest = IndexDigest()
        for (db, sum) in [(ids, \IndexDigest.ids), (streamEvents, \IndexDigest.streams)] {
            let isIDs = sum == \IndexDigest.ids
            var last: (key: [UInt8], value: [UInt8])? = nil
            var done = false
            while !done {
                try environment.read { txn in
                    try txn.withCursor(db) { c in
                        var entry: Cursor.Entry?
                        if let last {
                            // Back on the last entry seen, then past it.
                            let at = try last.key.withUnsafeBytes { k in
                                try isIDs ? c.seek(atLeast: k) : last.value.withUnsafeBytes { v in try c.seek(key: k, valueAtLeast: v) }
                            }
                            entry = try at.flatMap { e in e.key.elementsEqual(last.key) && e.value.elementsEqual(last.value) ? try c.next() : e }
                        } else {
                            entry = try c.first()
                        }
                        var n = 0
                        var seen: Cursor.Entry?
                        while let e = entry, n < max(1, indexWalkChunk) {
                            if e.value.count != 8 || EventLog.decodeSequence(e.value) <= end {
                                digest[keyPath: sum].add(key: e.key, value: e.value)
                            }
                            seen = e
                            n += 1
                            entry = try c.next()
                        }
                        if let seen { last = (Array(seen.key), Array(seen.value)) }
                        if entry == nil { done = true }
                    }
                }
                environment.releaseResidentPages(over: Environment.residentFileBudget)
            }
        }
        return digest
    }

    private func verifyBlobs(_ report: inout VerifyReport) throws {
        let zstd = try Zstd()
        let hasher = try SHA256Hasher()
        let loaded = try verifyDictionaries(&report)
        try forEachBlob { numbered, txn, key, value in
            report.blobsChecked += 1
            if numbered {
                try checkNumberedBlob(txn, key: key, value: value, zstd: zstd, hasher: hasher, dictionaries: loaded, report: &report)
                return
            }
            guard let h = BlobHash(bytes: Array(key)) else {
                report.add(nil, "blob key of \(key.count) bytes")
                return
            }
            do {
                _ = try BlobCodec.open(value, hash: h, zstd: zstd, hasher: hasher, dictionary: { loaded[$0] })
            } catch {
                report.add(nil, "\(error)")
            }
        }
    }

    /// Checks one blob of `blob_data`: its key is a number, its content decodes and its SHA-256 is indexed to that
    /// number in `blob_keys`. (With the two databases' entry counts equal, checked after, this makes the index
    /// and the blobs one to one.)
    private func checkNumberedBlob(_ txn: borrowing Transaction, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, zstd: Zstd, hasher: SHA256Hasher,
                                   dictionaries: [UInt32: ZstdDictionary], report: inout VerifyReport) throws {
        guard key.count == 8 else {
            report.add(nil, "numbered blob key of \(key.count) bytes")
            return
        }
        let number = EventLog.decodeSequence(key)
        do {
            let raw = try BlobCodec.decode(value, name: "number \(number)", zstd: zstd, dictionary: { dictionaries[$0] })
            let digest = hasher.hash(raw)
            // A damaged page of the index fails the transaction: the walk cannot go on in it, so the error ends the
            // blob walk (reported by `damage(of:)`) instead of being one blob's problem.
            let indexed = try digest.withUnsafeBytes { k in try blobKeys.flatMap { try txn.get($0, key: k) }.map { Array($0) } }
            if indexed != Array(key) {
                let hex = BlobHash(bytes: digest)?.hex ?? ""
                report.add(nil, "blob number \(number) is not what the blob index holds under its SHA-256 \(hex) (\(indexed.map { $0.count == 8 ? "number \($0.withUnsafeBytes { EventLog.decodeSequence($0) })" : "a damaged entry" } ?? "nothing")): its content was altered")
            }
        } catch let e as LMDBError {
            throw e
        } catch {
            report.add(nil, "\(error)")
        }
    }

    /// Checks every blob dictionary (ids 1...count present, each matching its SHA-256 and usable by zstd)
    /// and that each account's current dictionary exists; returns the good ones by id.
    private func verifyDictionaries(_ report: inout VerifyReport) throws -> [UInt32: ZstdDictionary] {
        let count = try dictionaryCount()
        var loaded: [UInt32: ZstdDictionary] = [:]
        if count > 0 {
            for id in 1...count {
                report.dictionariesChecked += 1
                guard let stored = try environment.read({ txn in try txn.getBytes(meta, key: EventLog.dictionaryKey(id)) }) else {
                    report.add(nil, "blob dictionary \(id) is missing (the log counts \(count))")
                    continue
                }
                do { loaded[id] = try EventLog.openDictionary(stored, id: id) } catch { report.add(nil, "\(error)") }
            }
        }
        let prefix = Array("blob_dict_account:".utf8)
        let named: [(String, UInt32?)] = try environment.read { txn in
            try txn.withCursor(meta) { c in
                var out: [(String, UInt32?)] = []
                var entry = try prefix.withUnsafeBytes { try c.seek(atLeast: $0) }
                while let e = entry, e.key.starts(with: prefix) {
                    out.append((String(decoding: e.key.dropFirst(prefix.count), as: UTF8.self),
                                EventLog.decodeDictionaryID(Array(e.value))))
                    entry = try c.next()
                }
                return out
            }
        }
        for (account, id) in named where id == nil || id! == 0 || id! > count {
            report.add(nil, "account '\(account)' names blob dictionary \(id.map(String.init) ?? "(unreadable)"), which is not in the log")
        }
        return loaded
    }
}
