import EventModel
import Foundation
import Glibc
import LMDB
import NativeCodecs

/// The append-only event log: every fact and action of a store, in one LMDB environment.
///
/// Databases:
/// - `events`: sequence (8 bytes, big-endian) -> record (`RecordCodec` layout), appended with `MDB_APPEND`;
/// - `ids`: event id (16 bytes) -> sequence: the idempotency index;
/// - `stream_events`: stream -> sequences (dupsort, fixed 8-byte big-endian values): the stream index; a
///   stream's version (for expected-version checks) is its entry count;
/// - `blob_data`: blob number (8 bytes, big-endian, from 1) -> flag byte, raw size (varint), [dictionary id
///   (varint)], data (`BlobCodec`), appended with `MDB_APPEND` in the order blobs arrive (format 3);
/// - `blob_keys`: SHA-256 (32 bytes) -> blob number: the content index, one entry per blob (format 3);
/// - `blobs`: SHA-256 (32 bytes) -> the stored blob, as format 1 and 2 wrote them: read, never written (a
///   store upgraded to format 3 keeps its old blobs there, and a blob already there is not stored again);
/// - `meta`: `head_hash` -> the chain hash of the last record; the blob dictionaries (`EventLog+Dictionaries`).
///
/// Appends are atomic per batch; readers see whole batches only, in this process or another.
/// Records are never changed or deleted.
package final class EventLog: @unchecked Sendable {
    /// The LMDB environment (exposed for tools and tests).
    package let environment: Environment
    let events: Database
    let ids: Database
    let streamEvents: Database
    /// Blobs as formats 1 and 2 stored them (keyed by hash): read only.
    let blobs: Database
    /// Blobs by number, appended (nil only in a format 2 store opened read-only, which has none).
    let blobData: Database?
    /// Blob hash -> number.
    let blobKeys: Database?
    let meta: Database

    /// Payloads at least this long are zstd-compressed when that saves at least 10%. Below it zstd does
    /// not pay: on ~500-byte payloads it saved ~20% of bytes but cost ~3 µs per event to decompress,
    /// 80% of a scan's time (measured with `Tools/bench`).
    package static let compressionThreshold = 1024
    /// Puts of one append (records, stream index entries, blobs) between two checks of the resident size. In a
    /// 1M-message log, 256 puts mapped up to ~70 MiB (each random index leaf with its 64 KiB neighbourhood, and
    /// the upper B-tree levels again after a release); 64 map ~20 MiB. A check reads `/proc/self/statm` (a few
    /// microseconds). Smaller batches are not checked.
    static let releaseInterval = 64
    /// The same where the map faults one page at a time (`Environment.mapsPagesSingly`: fault-around turned off,
    /// as `MailStore` opens the log): a put maps at most the few pages of its descent, so 512 puts map at most
    /// ~8 MiB; checking every 64 was ~6% of the writing thread in the log bench.
    static let releaseIntervalSingly = 512
    /// Lookups of `sequences(of:)` between two checks of the resident size: a lookup in a big index maps two or
    /// three 64 KiB neighbourhoods (~10 MiB per 64 lookups).
    static let lookupReleaseInterval = 64
    /// Batches of at least this many events are encoded on a second thread while the first writes
    /// (`PreparedFeed`), in chunks of `pipelineChunk` events.
    static let pipelineThreshold = 1_024
    static let pipelineChunk = 1_024

    let writerLock = NSLock()
    /// The clock an append records its events at (tests set it to step back); the log's recorded times never go
    /// back even when it does (see `appendIn`).
    package var clock: @Sendable () -> Timestamp = { .now }
    /// False appends as builds before 2026-12-03 did, recording the clock's time even where it is behind the last
    /// record's (for tests of logs they wrote).
    package var keepsRecordedTimesInOrder = true
    private let writer: WriterScratch
    /// The writing thread's scratch while the feed's thread uses `writer` (made at the first big batch).
    private var helper: WriterScratch?
    /// The bytes of emptied chunks kept for the next append (at most `SpareBatches.budget`, 8 MiB): for
    /// diagnostics and tests.
    package var spareChunkBytes: Int { writer.spares.heldBytes }
    /// Blob dictionaries loaded so far.
    let dictionaries = DictionaryCache()
    /// The stats cache file this log keeps current as it appends (`keepsTally`: a store's log opened for writing);
    /// nil: none kept. Set before the first append.
    package var tallyCache: String?
    /// The most events, and blobs, this log walks to start keeping the tally (`EventLog.tallyWalkLimit`; tests
    /// lower it).
    package var tallyWalkMost = EventLog.tallyWalkLimit
    /// Index entries `verify` digests per read transaction (tests lower it).
    package var indexWalkChunk = 65_536
    /// The tally kept as this process appends (nil: not kept, or not any more), the events and blobs appended since it
    /// was last written, and whether keeping it was tried (once, at the first append). Under `writerLock`.
    var keptTally: LogTally?
    var unsavedTally: UInt64 = 0
    var triedKeepingTally = false

    static let headHashKey = Array("head_hash".utf8)
    static let zeroHash = [UInt8](repeating: 0, count: 32)

    /// Opens the log environment in folder `path` (which must exist), creating its databases (with `existing`: the
    /// log's own, which every format has, must be there already: `StoreError.notALog` otherwise, nothing created).
    package init(path: String, options: Environment.Options = Environment.Options(), existing: Bool = false) throws {
        var opts = options
        opts.maxDatabases = max(opts.maxDatabases, 8)
        environment = try Environment(path: path, options: opts)
        if existing {
            // Opened without creating: a data file of another LMDB environment (a views file copied in its place)
            // lacks them, and must not have a new log started inside it.
            for name in ["events", "ids", "blobs", "meta", "stream_events"] {
                do { _ = try environment.openDatabase(name) } catch let e as LMDBError where e.isNotFound {
                    throw StoreError.notALog(file: Environment.dataFile(path), why: "it has no `\(name)` database (another LMDB file, not a log)")
                }
            }
        }
        let create: Database.Flags = options.readOnly ? [] : .create
        let plain = try environment.openDatabases(["events", "ids", "blobs", "meta"], flags: create)
        events = plain["events"]!
        ids = plain["ids"]!
        blobs = plain["blobs"]!
        meta = plain["meta"]!
        streamEvents = try environment.openDatabases(["stream_events"], flags: create.union([.dupSort, .dupFixed]))["stream_events"]!
        // A format 2 store opened read-only has no numbered blobs yet: its blobs are all in `blobs`.
        let numbered: [String: Database]
        do {
            numbered = try environment.openDatabases(["blob_data", "blob_keys"], flags: create)
        } catch let e as LMDBError where e.isNotFound && options.readOnly {
            numbered = [:]
        }
        blobData = numbered["blob_data"]
        blobKeys = numbered["blob_keys"]
        writer = try WriterScratch(spares: SpareBatches())
    }

    /// Opens the log of a store folder (checking its owner and its format first, and upgrading an older format when
    /// opened for writing: `StoreDirectory.upgradeFormat`, once the log is found to be one). A store folder of another
    /// user is refused (`StoreDirectory.checkOwner`).
    ///
    /// Only `creating` (`mailstore init`, on the folder `StoreDirectory.create` just made) makes a new log. Opening
    /// an existing store's log never does: LMDB would create a missing data file, or new databases in another LMDB
    /// file put in its place, and the store would silently start over (its views rebuilt empty, an import writing a
    /// brand-new log). A missing data file is `StoreError.logMissing`, an empty one `DataFileError.noHeader`, one that
    /// is not an LMDB file or lacks the log's databases `StoreError.notALog`; nothing is written then.
    package convenience init(store: StoreDirectory, options: Environment.Options = Environment.Options(), creating: Bool = false) throws {
        try store.checkOwner()
        let version = try store.checkFormat()
        let dataFile = Environment.dataFile(store.logPath)
        if !creating {
            var st = stat()
            if stat(dataFile, &st) != 0 {
                if errno == ENOENT { throw StoreError.logMissing(file: dataFile) }
                throw StoreError.io(dataFile, "cannot read the log file: \(String(cString: strerror(errno)))")
            }
            if st.st_mode & S_IFMT != S_IFREG { throw StoreError.notALog(file: dataFile, why: "it is not a regular file") }
            if st.st_size == 0 { throw DataFileError.noHeader(file: dataFile, size: 0) }
        }
        do {
            try self.init(path: store.logPath, options: options, existing: !creating)
        } catch let e as LMDBError where e.isNotAnEnvironment {
            throw StoreError.notALog(file: dataFile, why: "it is not an LMDB file of this version (\(e))")
        }
        if !options.readOnly && version < StoreDirectory.formatVersion { try store.upgradeFormat() }
        if !options.readOnly { tallyCache = store.statsCacheFile }
    }

    /// The sequence and type of the log's first record (nil: no record; a nil type: its fixed part is cut short, which
    /// `verify` reports). A store's log begins with the `StoreInitialized` event `mailstore init` records.
    package func firstRecord() throws -> (sequence: UInt64, type: EventType?)? {
        try environment.read { txn in
            try txn.withCursor(events) { c in
                guard let e = try c.first() else { return nil }
                return (EventLog.decodeSequence(e.key), RecordCodec.peekType(e.value))
            }
        }
    }

    deinit {
        saveKeptTallyUnlocked()
    }

    // MARK: - Head

    /// The last sequence (0 for an empty log) and its chain hash (32 zero bytes for an empty log).
    package func head() throws -> (sequence: UInt64, hash: [UInt8]) {
        try environment.read { txn in try headIn(txn) }
    }

    /// The time the last record was recorded at (nil for an empty log): no record appended from now on is recorded
    /// before it, so one far ahead of the machine's clock says that later records are recorded at it too.
    package func lastRecordedAt() throws -> Timestamp? {
        try environment.read { txn in
            try txn.withCursor(events) { c in try c.last().flatMap { RecordCodec.recordedAt($0.value) } }
        }
    }

    func headIn(_ txn: borrowing Transaction) throws -> (sequence: UInt64, hash: [UInt8]) {
        let seq: UInt64 = try txn.withCursor(events) { c in
            guard let e = try c.last() else { return 0 }
            return EventLog.decodeSequence(e.key)
        }
        let hash = try txn.getBytes(meta, key: EventLog.headHashKey) ?? EventLog.zeroHash
        return (seq, hash)
    }

    // MARK: - Append

    /// Appends `batch` atomically: all of it or, on any error, nothing.
    ///
    /// An event whose id is already in the log (or earlier in the batch) is not appended again; its
    /// outcome is `.duplicate(existing sequence)`. An expected-version mismatch throws
    /// `EventLogError.wrongExpectedVersion` and appends nothing. `blobs` are stored in the same
    /// transaction (once each, however often they are given).
    @discardableResult
    package func append(_ batch: [NewEvent], blobs pendingBlobs: [PendingBlob] = []) throws -> [AppendOutcome] {
        if environment.readOnly { throw EventLogError.readOnly }
        writerLock.lock()
        defer { writerLock.unlock() }
        if tallyCache != nil && !triedKeepingTally { startKeepingTally() }
        // What the transaction put, for the kept tally: added once it committed (a failed one adds nothing).
        var delta: TallyDelta?
        let outcomes: [AppendOutcome]
        if batch.count >= EventLog.pipelineThreshold && ProcessInfo.processInfo.activeProcessorCount > 1 {
            // A big batch is encoded on a second thread, a chunk at a time, while this one hashes and puts
            // the chunks already encoded, and encodes too while the next is not ready (the write transaction
            // stays on this thread).
            if helper == nil { helper = try WriterScratch(spares: writer.spares) }
            let feed = PreparedFeed(batch: batch, scratch: writer, helper: helper!, chunkSize: EventLog.pipelineChunk, now: clock())
            defer { feed.finish() }
            outcomes = try environment.write { txn in
                try appendIn(txn, batch: batch, chunk: { try feed.chunk($0) }, blobs: pendingBlobs, delta: &delta)
            }
        } else {
            let prepared = try writer.prepare(batch, now: clock())
            outcomes = try environment.write { txn in
                try appendIn(txn, batch: batch, chunk: { $0 == 0 ? prepared : nil }, blobs: pendingBlobs, delta: &delta)
            }
            writer.spares.give(consume prepared)
        }
        if let delta { keep(delta) }
        return outcomes
    }

    /// Appends one event durably (one transaction, fsync at commit).
    @discardableResult
    package func append(_ event: NewEvent) throws -> AppendOutcome {
        try append([event])[0]
    }

    /// Appends `batch` in `txn`, its records and keys coming from `chunk(k)`: the k-th chunk of consecutive
    /// events, nil after the last. A transaction aborted by an error leaves the log as it was; after
    /// `MDB_MAP_FULL` this runs again from chunk 0. Where this process keeps the stats' tally, `delta` is made
    /// afresh and counts what the transaction puts (added to the tally by the caller once it committed).
    private func appendIn(_ txn: borrowing Transaction, batch: [NewEvent], chunk: (Int) throws -> PreparedBatch?,
                          blobs pendingBlobs: [PendingBlob], delta: inout TallyDelta?) throws -> [AppendOutcome] {
        let head = try headIn(txn)
        delta = keptTally.map { TallyDelta(headBefore: head.sequence, lastBlobBefore: $0.lastBlobNumber) }
        var seq = head.sequence
        let prevHash = head.hash
        var outcomes: [AppendOutcome] = []
        outcomes.reserveCapacity(batch.count)
        let hasher = writer.hasher
        // The 72 bytes a chain hash covers live in one buffer of this call's for the loop, in their order: the
        // previous hash, the sequence key, the record's digest (hashed in one call; arrays there were retained at
        // each use: a tenth of the writing thread). The head hash read from `meta` is 32 bytes unless damaged; a
        // damaged one is hashed as it is, as before, once.
        let link = UnsafeMutableRawBufferPointer.allocate(byteCount: 72, alignment: 8)
        defer { link.deallocate() }
        let previous = UnsafeMutableRawBufferPointer(rebasing: link[0..<32])
        let seqKey = UnsafeMutableRawBufferPointer(rebasing: link[32..<40])
        let digest = UnsafeMutableRawBufferPointer(rebasing: link[40..<72])
        var damagedPrevious: [UInt8]? = prevHash.count == 32 ? nil : prevHash
        if damagedPrevious == nil { prevHash.withUnsafeBytes { previous.copyMemory(from: $0) } }
        var appended = false
        // Recorded times never go back along the log, so a time names a point in it (`--as-of`, `log --since`) and
        // is found by binary search: a batch encoded at a clock behind the last record's time (the wall clock
        // stepped back: NTP, a VM resumed, a phone's clock set by hand) records that time instead, each such
        // record's digest made again here. Rare, and a read of the last record otherwise.
        var floor: Timestamp?
        var digestHasher: SHA256Hasher?
        // Stream index entries are put after each chunk's records, sorted by key, so consecutive puts land on the
        // same index pages (the keys of a batch are scattered over the index): each appended event's key is
        // copied into `keyArena` meanwhile. Expected-version checks count the current chunk's entries (not in the
        // index yet) from `pendingVersions` (kept only when a check needs it).
        var keyArena: [UInt8] = []
        var streamPuts: [StreamPut] = []
        streamPuts.reserveCapacity(batch.count)
        var pendingVersions: [String: UInt64]? = nil
        // Every put reads index pages at random (ids, stream keys and blob hashes are scattered): a big batch (an
        // import's 512 messages) maps thousands of pages, ~200 MiB where each page read also maps its cached
        // 64 KiB neighbourhood (kernel fault-around, on where `Options.noFaultAround` could not turn it off). Its
        // mapped pages are checked against the budget every `releaseInterval` puts (the map is read-only: this
        // transaction's dirty pages are in its own memory, not in the map).
        let interval = environment.mapsPagesSingly ? EventLog.releaseIntervalSingly : EventLog.releaseInterval
        let releasing = batch.count + pendingBlobs.count >= interval
        var puts = 0
        func checkResident() {
            puts += 1
            if releasing && puts % interval == 0 { environment.releaseResidentPages(over: Environment.residentFileBudget) }
        }

        // The ids, keys and expected versions come from `prepared`: reading them from `batch` copied each event,
        // retaining every string and array of its payload. The chunk's buffers are read through pointers, one
        // borrow per chunk instead of a retain per field read.
        // Records and ids are put through a cursor each: records append, and ids mostly ascend (time-ordered), so
        // a put starts from the leaf the last one left rather than descending from the root (mdb_put opens a
        // cursor and descends each time: a fifth of the writing thread in the log bench's profile).
        var first = 0, chunkIndex = 0
        try txn.withCursor(events) { eventCursor in
        // The last record, read through the cursor the records are appended with: its chain hash must be the head hash
        // in `meta` the batch chains from (a damaged head hash had been chained from as it was: every record appended
        // after it failed verify, and the damage verify had named was named no more), and its time is the floor of
        // the batch's (nil for an empty log).
        if head.sequence > 0 {
            let last = try eventCursor.last()
            let chain = last.map { $0.value.count >= RecordCodec.hashRange.upperBound
                ? Array(UnsafeRawBufferPointer(rebasing: $0.value[RecordCodec.hashRange])) : [] }
            guard let chain, chain == prevHash else { throw EventLogError.headHashMismatch(sequence: head.sequence) }
            if keepsRecordedTimesInOrder { floor = last.flatMap { RecordCodec.recordedAt($0.value) } }
        }
        try txn.withCursor(self.ids) { idCursor in
        while let prepared = try chunk(chunkIndex) {
            chunkIndex += 1
            keyArena.reserveCapacity(prepared.keyBytes.count + 64)
            if pendingVersions == nil && prepared.expected.contains(where: { $0 != .any }) {
                // The chunks before this one have their entries in the index already: count this one's only.
                pendingVersions = [:]
            }
            try prepared.bytes.withUnsafeBytes { all in
            try prepared.keyBytes.withUnsafeBytes { keys in
            try prepared.spans.withUnsafeBufferPointer { spans in
            try prepared.keySpans.withUnsafeBufferPointer { keySpans in
            try prepared.ids.withUnsafeBufferPointer { ids in
            try prepared.expected.withUnsafeBufferPointer { expecteds in
            try prepared.digests.withUnsafeBytes { digests in
                for j in 0..<ids.count {
                    checkResident()
                    seqKey.storeBytes(of: (seq + 1).bigEndian, as: UInt64.self)
                    // Idempotency: claim the id for the next sequence, or learn the sequence that has it (an
                    // earlier batch, or earlier in this one: the transaction sees its own writes).
                    let existing = try ids[j].withBytes { k in
                        try idCursor.putIfAbsent(key: k, value: UnsafeRawBufferPointer(seqKey)).map(EventLog.decodeSequence)
                    }
                    if let existing {
                        outcomes.append(.duplicate(existing))
                        continue
                    }
                    let key = UnsafeRawBufferPointer(rebasing: keys[keySpans[j]])
                    let expected = expecteds[j]
                    if expected != .any {
                        let streamKey = prepared.streamKey(j)
                        // The stream's version is its entry count in the stream index, this batch's included.
                        let version = try streamCount(txn, key: key) + (pendingVersions?[streamKey] ?? 0)
                        let ok: Bool
                        switch expected {
                        case .any: ok = true
                        case .noStream: ok = version == 0
                        case .exactly(let v): ok = version == v
                        }
                        if !ok { throw EventLogError.wrongExpectedVersion(stream: batch[first + j].stream.rawValue, expected: expected, actual: version) }
                    }
                    seq += 1
                    // The chain hash: SHA-256(previous hash ‖ sequence ‖ the record's digest, made as it was encoded).
                    let rec = UnsafeRawBufferPointer(rebasing: all[spans[j]])
                    let dst = try eventCursor.reserve(key: UnsafeRawBufferPointer(seqKey), size: rec.count, flags: .append)
                    dst.copyMemory(from: rec)
                    let hash = UnsafeMutableRawBufferPointer(rebasing: dst[RecordCodec.hashRange])
                    // The recorded time read from the encoded record (in cache), not from the page just written.
                    if let floor, let at = RecordCodec.recordedAt(rec), at < floor {
                        RecordCodec.setRecordedAt(floor, in: dst)
                        if digestHasher == nil { digestHasher = try SHA256Hasher() }
                        EventLog.recordDigest(UnsafeRawBufferPointer(dst), hasher: digestHasher!, into: digest)
                    } else {
                        digest.copyMemory(from: UnsafeRawBufferPointer(rebasing: digests[(j * 32)..<(j * 32 + 32)]))
                    }
                    delta?.add(record: UnsafeRawBufferPointer(dst))
                    if let damaged = damagedPrevious {
                        damaged.withUnsafeBytes { p in
                            EventLog.chainHash(previous: p, sequenceKey: UnsafeRawBufferPointer(seqKey),
                                               digest: UnsafeRawBufferPointer(digest), hasher: hasher, into: hash)
                        }
                        damagedPrevious = nil
                    } else {
                        EventLog.chainHash(link: UnsafeRawBufferPointer(link), hasher: hasher, into: hash)
                    }
                    previous.copyMemory(from: UnsafeRawBufferPointer(hash))
                    let start = keyArena.count
                    keyArena.append(contentsOf: key)
                    streamPuts.append(StreamPut(word: 0, start: start, count: key.count, seq: seq))
                    if pendingVersions != nil { pendingVersions![prepared.streamKey(j), default: 0] += 1 }
                    appended = true
                    outcomes.append(.appended(seq))
                }
            }}}}}}}
            first += prepared.ids.count
            // The chunk's stream entries, sorted, now rather than the whole batch's after the last chunk: the
            // writing thread then has less left to do once the encoding thread has no chunk left to encode.
            try putStreamEntries(txn, &streamPuts, arena: keyArena, check: checkResident)
            streamPuts.removeAll(keepingCapacity: true)
            keyArena.removeAll(keepingCapacity: true)
            if pendingVersions != nil { pendingVersions = [:] }
        }
        }}
        try putBlobs(txn, pendingBlobs, check: checkResident, delta: &delta)
        if appended {
            if delta != nil { delta!.end = (seq, Array(UnsafeRawBufferPointer(previous))) }
            try EventLog.headHashKey.withUnsafeBytes { k in
                _ = try txn.put(meta, key: k, value: UnsafeRawBufferPointer(previous))
            }
        }
        return outcomes
    }

    /// Puts the stream index entries of a chunk, sorted by key then sequence, so consecutive puts land on the
    /// same index pages (a batch's keys are scattered over the index).
    ///
    /// The keys are in one arena (`entries[i]`'s key at `start..<start + count`) and are sorted by the 8 bytes
    /// after the prefix all of them share (zero padded), then by the whole key: comparing `String`s was an eighth
    /// of an append in the log bench's profile. Both orders are LMDB's memcmp order for the keys.
    private func putStreamEntries(_ txn: borrowing Transaction, _ entries: inout [StreamPut], arena: [UInt8],
                                  check: () -> Void) throws {
        guard !entries.isEmpty else { return }
        try arena.withUnsafeBytes { bytes in
            // The prefix every key shares with the first.
            let first = entries[0]
            var shared = first.count
            for e in entries.dropFirst() where shared > 0 {
                var j = 0
                let n = min(shared, e.count)
                while j < n && bytes[first.start + j] == bytes[e.start + j] { j += 1 }
                shared = j
            }
            for k in entries.indices {
                var w: UInt64 = 0
                let e = entries[k]
                for j in 0..<8 { w = w << 8 | UInt64(shared + j < e.count ? bytes[e.start + shared + j] : 0) }
                entries[k].word = w
            }
            entries.sort { a, b in
                if a.word != b.word { return a.word < b.word }
                let ra = UnsafeRawBufferPointer(rebasing: bytes[a.start..<(a.start + a.count)])
                let rb = UnsafeRawBufferPointer(rebasing: bytes[b.start..<(b.start + b.count)])
                let c = memcmp(ra.baseAddress!, rb.baseAddress!, min(a.count, b.count))
                if c != 0 { return c < 0 }
                return a.count == b.count ? a.seq < b.seq : a.count < b.count
            }
            // Through one cursor: the keys are sorted, so each put starts from the leaf the last one left.
            var seqKey = [UInt8](repeating: 0, count: 8)
            try txn.withCursor(streamEvents) { cursor in
                for e in entries {
                    check()
                    EventLog.encodeSequence(e.seq, into: &seqKey)
                    let k = UnsafeRawBufferPointer(rebasing: bytes[e.start..<(e.start + e.count)])
                    try seqKey.withUnsafeBytes { v in try cursor.put(key: k, value: v) }
                }
            }
        }
    }

    /// Stores each blob not stored yet: its bytes appended under the next blob number (`blob_data`, so a batch's
    /// blobs fill fresh pages in order instead of landing in random leaves of a hash-keyed tree, each copied on
    /// write and split: ~5% of an import's time and ~5% of the file at 100K messages), its hash indexed to the
    /// number (`blob_keys`, small entries). A blob already stored, in this batch or before, in either layout,
    /// is not stored again.
    private func putBlobs(_ txn: borrowing Transaction, _ pending: [PendingBlob], check: () -> Void,
                          delta: inout TallyDelta?) throws {
        guard !pending.isEmpty else { return }
        guard let blobData, let blobKeys else { throw EventLogError.readOnly }
        let legacy = try txn.stat(blobs).entries > 0
        // The next number follows the last key; a damaged last key (not 8 bytes, or the largest number) fails the
        // append, storing nothing, rather than reading past the key or wrapping around.
        let last: UInt64? = try txn.withCursor(blobData) { c in
            guard let e = try c.last() else { return 0 }
            return e.key.count == 8 ? EventLog.decodeSequence(e.key) : nil
        }
        guard let last, last < UInt64.max else {
            throw EventLogError.corruptBlob(hash: "blob_data", reason: "its last key is not a blob number below 2^64-1: the log's blob store is damaged; restore log/ from a backup")
        }
        var next = last + 1
        if delta != nil {
            delta!.lastBlobBefore = last
            delta!.lastBlob = last
        }
        var numberKey = [UInt8](repeating: 0, count: 8)
        for blob in pending {
            check()
            let stored = try blob.hash.withUnsafeBytes { k -> Bool in
                if legacy, try txn.get(blobs, key: k) != nil { return true }
                EventLog.encodeSequence(next, into: &numberKey)
                return try numberKey.withUnsafeBytes { try txn.putIfAbsent(blobKeys, key: k, value: $0) } != nil
            }
            if stored { continue }
            try numberKey.withUnsafeBytes { k in
                try blob.stored.withUnsafeBytes { v in _ = try txn.put(blobData, key: k, value: v, flags: .append) }
            }
            delta?.add(blob: blob.stored, number: next)
            next += 1
        }
    }

    /// The stored bytes of blob `hash` as `txn` sees them (either layout), or nil.
    func storedBlob(_ txn: borrowing Transaction, _ hash: BlobHash) throws -> UnsafeRawBufferPointer? {
        try hash.withUnsafeBytes { k in
            if let blobKeys, let blobData, let number = try txn.get(blobKeys, key: k) {
                guard number.count == 8, let stored = try txn.get(blobData, key: number) else {
                    throw EventLogError.corruptBlob(hash: hash.hex, reason: "the blob index names blob \(number.count == 8 ? String(EventLog.decodeSequence(number)) : "(a \(number.count)-byte key)"), which is missing")
                }
                return stored
            }
            return try txn.get(blobs, key: k)
        }
    }

    /// The number of entries of `key` in the stream index.
    func streamCount(_ txn: borrowing Transaction, key: UnsafeRawBufferPointer) throws -> UInt64 {
        try txn.withCursor(streamEvents) { c in
            guard try c.seek(exactly: key) != nil else { return 0 }
            return UInt64(try c.duplicateCount())
        }
    }

    // MARK: - Blobs

    /// Hashes and compresses `bytes` for the blob store (outside any transaction).
    package func prepareBlob(_ bytes: [UInt8]) throws -> PendingBlob {
        try bytes.withUnsafeBytes { try prepareBlob($0) }
    }

    /// Hashes and compresses `bytes` for the blob store (outside any transaction).
    package func prepareBlob(_ bytes: UnsafeRawBufferPointer, dictionary: BlobDictionary? = nil) throws -> PendingBlob {
        try BlobEncoder().prepare(bytes, dictionary: dictionary)
    }

    /// Stores `bytes` in the blob store (once) and returns their hash.
    @discardableResult
    package func putBlob(_ bytes: [UInt8]) throws -> BlobHash {
        let b = try prepareBlob(bytes)
        try append([], blobs: [b])
        return b.hash
    }

    /// The raw bytes of blob `hash`, or nil when absent. Checks the bytes against the hash.
    package func blob(_ hash: BlobHash) throws -> [UInt8]? {
        try blob(hash, zstd: nil, hasher: nil)
    }

    /// Blob `hash` read with a caller's zstd context and hasher, which a loop over many blobs (the search
    /// index's rebuild) reuses instead of making two per blob. Neither may be shared between threads.
    package func blob(_ hash: BlobHash, zstd: Zstd?, hasher: SHA256Hasher?) throws -> [UInt8]? {
        // Decoded where it lies in the map: the stored bytes are not copied out first (a copy and an allocation per blob
        // the search index's rebuild reads).
        try environment.read { txn in
            guard let stored = try storedBlob(txn, hash) else { return nil }
            // A big blob's pages read ahead: where the log is read without read-ahead, each of them would fault and
            // wait alone (a 0.5 MB message from a cold cache: 175 faults, 123 of them its pages).
            let ahead = stored.count >= EventLog.readAheadBlobBytes ? stored : UnsafeRawBufferPointer(start: nil, count: 0)
            return try environment.withReadAhead(over: ahead) {
                try BlobCodec.open(stored, hash: hash, zstd: zstd, hasher: hasher, dictionary: { try self.dictionary(id: $0, txn) })
            }
        }
    }

    /// The size from which a blob's stored bytes are read with the kernel's read-ahead on a log opened without it.
    static let readAheadBlobBytes = 64 * 1024

    /// True when blob `hash` is stored.
    package func hasBlob(_ hash: BlobHash) throws -> Bool {
        try environment.read { txn in try storedBlob(txn, hash) != nil }
    }

    // MARK: - Reading

    /// The sequence of event `id`, or nil.
    package func sequence(of id: EventID) throws -> UInt64? {
        let key = id.bytes
        return try environment.read { txn in
            try key.withUnsafeBytes { try txn.get(ids, key: $0) }.map(EventLog.decodeSequence)
        }
    }

    /// The event at `sequence`, or nil.
    package func event(at sequence: UInt64) throws -> StoredEvent? {
        var key = [UInt8](repeating: 0, count: 8)
        EventLog.encodeSequence(sequence, into: &key)
        let decoder = try RecordDecoder()
        return try environment.read { txn in
            guard let raw = try key.withUnsafeBytes({ try txn.get(events, key: $0) }) else { return nil }
            return try decoder.decode(raw, sequence: sequence)
        }
    }

    /// The chain hash stored with the event at `sequence` (32 zero bytes for 0, the empty log's), or nil when
    /// the log has no such event. Two logs that agree on it agree on every event up to it.
    package func chainHash(at sequence: UInt64) throws -> [UInt8]? {
        if sequence == 0 { return EventLog.zeroHash }
        var key = [UInt8](repeating: 0, count: 8)
        EventLog.encodeSequence(sequence, into: &key)
        return try environment.read { txn in
            guard let raw = try key.withUnsafeBytes({ try txn.get(events, key: $0) }), raw.count >= RecordCodec.hashRange.upperBound else {
                return nil
            }
            return Array(raw[RecordCodec.hashRange])
        }
    }

    /// The number of events in `stream` (its version).
    package func streamVersion(_ stream: StreamName) throws -> UInt64 {
        let key = EventLog.streamKey(stream.rawValue)
        return try environment.read { txn in try key.withUTF8Buffer { try streamCount(txn, key: $0) } }
    }

    /// The names of the streams that begin with `prefix` (in byte order; a name over 400 bytes, kept by its hash, is left
    /// out), at most `limit` of them: one read of the stream index's keys, no event decoded.
    package func streamNames(prefix: String, limit: Int = 10_000) throws -> [String] {
        let start = Array(prefix.utf8)
        return try environment.read { txn in
            try txn.withCursor(streamEvents) { c in
                var names: [String] = []
                var entry = try start.withUnsafeBytes { try c.seek(atLeast: $0) }
                while let e = entry, names.count < max(0, limit), e.key.starts(with: start) {
                    let name = String(decoding: e.key, as: UTF8.self)
                    if !name.hasPrefix("#sha256:") { names.append(name) }
                    entry = try c.nextKey()
                }
                return names
            }
        }
    }

    /// A chunk of `scan` also ends past this many payload bytes: events are ~1 KB, so 512 stay under it; events of
    /// ~125 KB (a message naming 128 references of ~1 KB each) had made a chunk of 512 hold 63 MB.
    package static let scanChunkBytes = 4 << 20

    /// Calls `body` with each event from `from` up to the head as it was when the scan began (a
    /// consistent snapshot: later appends are not seen), in order, until `body` returns false.
    /// Reads in short transactions of `chunkSize` records (512 by default) or `scanChunkBytes` of payloads (the
    /// records of a chunk, and the log's pages around them that reading maps, are held until `body` has seen them),
    /// each visiting at most
    /// `visitsPerChunk` records (a filter that passes few would otherwise hold one transaction over the whole
    /// log). The log's pages are released after each chunk past the mapped budget: `mailstore log --type T` over
    /// a 1M-message log had mapped 1 GB.
    package func scan(from: UInt64 = 1, filter: ScanFilter = .all, chunkSize: Int = 512,
                     _ body: (StoredEvent) throws -> Bool) throws {
        if let stream = filter.stream {
            return try scanStream(stream.rawValue, from: from, filter: filter, chunkSize: chunkSize, body)
        }
        let decoder = try RecordDecoder()
        let end = try head().sequence
        var next = max(from, 1)
        var key = [UInt8](repeating: 0, count: 8)
        var batch: [StoredEvent] = []
        batch.reserveCapacity(chunkSize)
        let visitsPerChunk = chunkSize * 16
        while next <= end {
            batch.removeAll(keepingCapacity: true)
            var batchBytes = 0
            EventLog.encodeSequence(next, into: &key)
            try environment.read { txn in
                try txn.withCursor(events) { c in
                    var entry = try key.withUnsafeBytes { try c.seek(atLeast: $0) }
                    var visited = 0
                    while let e = entry, batch.count < chunkSize, batchBytes < EventLog.scanChunkBytes, visited < visitsPerChunk {
                        let seq = EventLog.decodeSequence(e.key)
                        // Sequences are gap-free: any other than the next is a damaged page (seeking it again would
                        // find the same record forever, and a gap would lose events without a word).
                        guard seq == next else { throw EventLog.outOfOrder(seq, after: next) }
                        if seq > end { break }
                        next = seq + 1
                        visited += 1
                        if let types = filter.types, let t = RecordCodec.peekType(e.value), !types.contains(t) {
                            entry = try c.next()
                            continue
                        }
                        let ahead = c.nextAhead()
                        let ev = try decoder.decode(e.value, sequence: seq)
                        if let a = filter.account, ev.envelope.account != a {
                            entry = try ahead.get()
                            continue
                        }
                        batchBytes += ev.payload.count
                        batch.append(ev)
                        entry = try ahead.get()
                    }
                    if entry == nil {
                        if next <= end { throw EventLog.outOfOrder(nil, after: next) }
                        next = end + 1
                    }
                }
            }
            environment.releaseResidentPages(over: Environment.residentFileBudget)
            for ev in batch where try !body(ev) { return }
        }
    }

    /// As `scan`, with each event's payload decoded into its typed event where it lies (the record's bytes in the
    /// log's map, not a copy of them): `body` gets the envelope and the event, or why its payload does not decode
    /// (such an event is passed on, not skipped). `body` runs inside the scan's read transaction (one per
    /// `chunkSize` records), so it must not write to the log; it is called as each record is decoded, so at most one
    /// decoded event is alive at a time (decoding a chunk first and then calling `body` was slower: ~10K live heap
    /// objects per chunk instead of ~20 reused). The log's pages the scan maps are released after each chunk when
    /// they pass the mapped budget. A stream filter reads through `scan`.
    package func scanDecoded(from: UInt64 = 1, filter: ScanFilter = .all, chunkSize: Int = 512,
                             _ body: (EventEnvelope, Result<DomainEvent, DecodeError>) throws -> Bool) throws {
        if filter.stream != nil {
            return try scan(from: from, filter: filter, chunkSize: chunkSize) { ev in
                try body(ev.envelope, Result { () throws(DecodeError) -> DomainEvent in try ev.decode() })
            }
        }
        let decoder = try RecordDecoder()
        let end = try head().sequence
        var next = max(from, 1)
        var stopped = false
        try forEachRecord(from: from, through: end, chunk: chunkSize) { _, key, value in
            guard key.count == 8 else {
                throw EventLogError.corruptRecord(sequence: next, reason: "the log file is damaged: a record's key is \(key.count) bytes, not 8 (run `mailstore verify`; restore the log from a backup, docs/operations.md)")
            }
            let seq = EventLog.decodeSequence(key)
            guard seq == next else { throw EventLog.outOfOrder(seq, after: next) }
            next += 1
            if let types = filter.types, let t = RecordCodec.peekType(value), !types.contains(t) { return true }
            let record = try decoder.decodeTyped(value, sequence: seq)
            if let a = filter.account, record.envelope.account != a { return true }
            stopped = try !body(record.envelope, record.event)
            return !stopped
        }
        if !stopped && next <= end { throw EventLog.outOfOrder(nil, after: next) }
    }

    /// `scan` of one stream, through the stream index: `chunkSize` of its events (or `scanChunkBytes` of payloads) per
    /// read transaction.
    private func scanStream(_ stream: String, from: UInt64, filter: ScanFilter, chunkSize: Int,
                            _ body: (StoredEvent) throws -> Bool) throws {
        let decoder = try RecordDecoder()
        let key = EventLog.streamKey(stream)
        let end = try head().sequence
        var next = max(from, 1)
        var fromKey = [UInt8](repeating: 0, count: 8)
        var sk = [UInt8](repeating: 0, count: 8)
        var found: [StoredEvent] = []
        var more = true
        while more {
            found.removeAll(keepingCapacity: true)
            var foundBytes = 0
            more = false
            EventLog.encodeSequence(next, into: &fromKey)
            try environment.read { txn in
                try txn.withCursor(streamEvents) { c in
                    var entry = try key.withUTF8Buffer { k in try fromKey.withUnsafeBytes { try c.seek(key: k, valueAtLeast: $0) } }
                    var visited = 0
                    while let e = entry {
                        if visited == chunkSize || foundBytes >= EventLog.scanChunkBytes { more = true; break }
                        visited += 1
                        let seq = EventLog.decodeSequence(e.value)
                        if seq > end { more = false; break }
                        guard seq >= next else { throw EventLog.outOfOrder(seq, after: next) }
                        next = seq &+ 1
                        EventLog.encodeSequence(seq, into: &sk)
                        guard let raw = try sk.withUnsafeBytes({ try txn.get(events, key: $0) }) else {
                            throw EventLogError.corruptRecord(sequence: seq, reason: "the stream index names a missing event")
                        }
                        if filter.types == nil || filter.types!.contains(RecordCodec.peekType(raw) ?? EventType(rawValue: 0)) {
                            let ev = try decoder.decode(raw, sequence: seq)
                            if filter.account == nil || ev.envelope.account == filter.account {
                                foundBytes += ev.payload.count
                                found.append(ev)
                            }
                        }
                        entry = try c.nextDuplicate()
                    }
                }
            }
            environment.releaseResidentPages(over: Environment.residentFileBudget)
            for ev in found where try !body(ev) { return }
            if next == 0 { return }
        }
    }

    // MARK: - Keys

    /// Writes `seq` as 8 big-endian bytes.
    @inline(__always) static func encodeSequence(_ seq: UInt64, into key: inout [UInt8]) {
        key.withUnsafeMutableBytes { $0.storeBytes(of: seq.bigEndian, as: UInt64.self) }
    }

    /// Reads 8 big-endian bytes. A key or value of another length (a damaged page) is read from its first 8 bytes, or
    /// from fewer padded with zeros after them (so numbers keep LMDB's order of keys), never past its end; the walks
    /// then find its sequence is not the one due.
    @inline(__always) static func decodeSequence(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        if _fastPath(raw.count == 8) { return UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)) }
        var v: UInt64 = 0
        for i in 0..<8 { v = v << 8 | UInt64(i < raw.count ? raw[i] : 0) }
        return v
    }

    /// The error of a walk that met sequence `seq` where the log's order wants one at or past `next` (below `next`
    /// going `backwards`): LMDB keeps keys sorted, so only a damaged page of the log file gives that, and walking on
    /// would visit the same records again and again.
    static func outOfOrder(_ seq: UInt64?, after next: UInt64, backwards: Bool = false) -> EventLogError {
        let found = seq.map { "sequence \($0) read where the order wants " } ?? "no record read where the log's head wants "
        return .corruptRecord(sequence: next, reason: "the log file is damaged: " + found
                              + (backwards ? "one below \(next)" : "\(next)")
                              + " (run `mailstore verify`; restore the log from a backup, docs/operations.md)")
    }

    /// The index key of a stream: its name, or a digest for names over LMDB's key size.
    static func streamKey(_ stream: String) -> String {
        if stream.utf8.count <= 400 { return stream }
        let digest = (try? SHA256Hasher())?.hash(Array(stream.utf8)) ?? []
        return "#sha256:" + (BlobHash(bytes: digest)?.hex ?? "")
    }

    /// Appends `streamKey(stream)`'s UTF-8 bytes to `out` (a stream name as it is, without a copy of the string,
    /// when it is short enough to be its own key).
    static func appendStreamKey(_ stream: String, to out: inout [UInt8]) {
        if stream.utf8.count <= 400,
           stream.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) != nil { return }
        out.append(contentsOf: streamKey(stream).utf8)
    }
}

extension String {
    /// Runs `body` with the string's UTF-8 bytes.
    func withUTF8Buffer<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var s = self
        return try s.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}

extension EventLog {
    /// The sequences of `ids` (nil where absent), in one read transaction.
    ///
    /// Ids derived from natural keys are scattered over the id index, and each leaf a lookup reads is mapped (with
    /// its cached 64 KiB neighbourhood where the kernel's fault-around is on): an import's 512 lookups mapped ~75 MiB
    /// of a 1M-message log with it. The resident size is checked against the budget every `lookupReleaseInterval`
    /// lookups (between two lookups, when no pointer into the map is held); `budget` is for tests.
    package func sequences(of ids: [EventID], budget: Int = Environment.residentFileBudget) throws -> [UInt64?] {
        let releasing = ids.count > EventLog.lookupReleaseInterval
        return try environment.read { txn in
            var out: [UInt64?] = []
            out.reserveCapacity(ids.count)
            for (i, id) in ids.enumerated() {
                if releasing && i > 0 && i % EventLog.lookupReleaseInterval == 0 {
                    environment.releaseResidentPages(over: budget)
                }
                out.append(try id.withBytes { try txn.get(self.ids, key: $0) }.map(EventLog.decodeSequence))
            }
            return out
        }
    }
}
