import CSQLite
import EventLog
import EventModel
import Foundation
import Projections

extension SearchIndex {
    /// Events folded per write transaction, at most: each email's document is held until its batch is written, so a
    /// batch holds up to 500 documents (a 100K-message rebuild took the same time as with 2,000), and less when they
    /// hold `batchBytes`.
    static let batchSize = 500
    /// What a batch's events and documents may hold before it is cut short of `batchSize`
    /// (`SearchBatchReader.heldBytes`: payloads encoded and decoded, the documents' strings). Memory: a rebuild has
    /// three batches in flight (`SearchBatchFeed`), so ~3 x 8 MiB plus one event past the line (its document's body at
    /// most `SearchDocument.maxBodyBytes`). Ordinary mail does not reach it (500 generated messages: ~3 MB);
    /// messages naming 1,000 recipients each (~180 KB counted a message) are cut at ~45 a batch, where 250 of them
    /// (500 events with their categories) held ~32 MB a batch, ~127 MB of heap with four batches alive at once
    /// (`replay --view search` of 2,000 of them peaked at 267 MB; 114 MB with this).
    static let batchBytes = 8 << 20
    /// Batches a file being built aside (`bulk`) writes per transaction: FTS5 writes a segment at each commit (and
    /// when `buildHashBytes` fill up), so fewer, larger transactions leave fewer segments to merge. Batches cut short
    /// by `batchBytes` make smaller transactions: 8 full batches' events per transaction instead built no faster
    /// (2,000 messages naming 1,000 recipients each, `replay --view search`: 3.0-3.5 s, 111 MB either way; 2026-12-06).
    /// Nothing is lost by it: a build killed midway is started again from the log. A live index keeps one batch per
    /// transaction.
    static let bulkBatchesPerTransaction = 8
    /// Blobs read between two checks of the resident size (`releaseResidentPages(over:)`): each blob read maps
    /// its pages, and their cached neighbourhood where the kernel's fault-around is on (up to 64 KiB), so 16 blobs
    /// map up to ~1 MiB. With
    /// the reading on a thread of its own (`SearchBatchFeed`), every 64 blobs left `verify --views` at 100K at
    /// 208-227 MiB; every 16, 191-208 MiB in the same time.
    static let releaseInterval = 16
    /// Catch-ups of at least this many events read and parse on a second thread (`SearchBatchFeed`).
    static let pipelineThreshold: UInt64 = 2_000

    /// The event types the index folds (every other event only advances the checkpoint).
    static let foldedTypes: Set<EventType> = [
        .emailReceived, .emailExpunged, .flagsChanged, .emailCategorized,
        .threadArchived, .threadDeleted, .threadMarkedRead, .threadMarkedUnread, .threadStarred, .threadUnstarred,
        .threadMoved, .flagRejected, .actionReverted, .draftCopyChanged,
    ]

    /// Folds every event after the checkpoint up to `limit` (default: the log's head), in transactions of
    /// `batchSize` events, each writing its rows and the new checkpoint together.
    ///
    /// A catch-up of `pipelineThreshold` events or more (a rebuild) reads, decodes and parses its batches on
    /// a second thread while this one writes them (`SearchBatchFeed`, at most `SearchBatchFeed.capacity`
    /// batch ahead): parsing the messages was a fifth of a rebuild's time, and SQLite writes on one thread.
    ///
    /// An email whose raw message does not read (a damaged blob) is indexed without its body, and `notice` is told
    /// which (`tellUnreadBodies`); the catch-up goes on. Nothing on an index opened read-only.
    ///
    /// `deadline` (`SearchIndex.now()`'s clock; nil: none): the catch-up stops at the first batch boundary past it
    /// (a small catch-up at the first event past it, committing the events before), everything folded so far committed
    /// with its checkpoint, so the next catch-up goes on from there; it returns false then (true: folded through
    /// `limit`). A search bounds its catch-up so (`mailstore search --timeout`): a big import had made the first search
    /// after it fold for minutes, past any limit. Making `terms` again at the end is left to a later catch-up when the
    /// time left is less than it is expected to take (`recomputeNanosPerDocument`): searches then list words from
    /// `fts5vocab`, slower but the same.
    @discardableResult
    package func catchUp(log: EventLog, through limit: UInt64? = nil, deadline: UInt64? = nil,
                         progress: ((UInt64, UInt64) -> Void)? = nil, notice: (String) -> Void = { _ in }) throws -> Bool {
        // An index opened read-only is searched as it stands (`openReadOnly` said how far behind it is).
        if readOnly { return true }
        let unreadBefore = locked { unreadBodies }
        defer { tellUnreadBodies(since: unreadBefore, notice: notice) }
        let head = try limit ?? log.head().sequence
        let start = try checkpoint()
        // A live index keeps `terms` current: batch by batch for a few events, else made again at the end (a file
        // built aside gets it from its builder, after the merge).
        if !bulk {
            let events = head > start ? head - start : 0
            let counted = try events <= SearchIndex.termsCountedCatchUp || events <= UInt64(documentCount() / 16)
            locked { countsTerms = counted }
        }
        defer { locked { countsTerms = false } }
        if start < head, try !foldCatchUp(log: log, head: head, start: start, deadline: deadline, progress: progress) { return false }
        // Behind after the fold (counted batches keep it current), or before it with nothing to fold: made again
        // (within a deadline only when it is expected to fit).
        if !bulk, try !locked({ try termsCurrent() }) {
            if let deadline, try SearchIndex.now() + UInt64(documentCount()) * SearchIndex.recomputeNanosPerDocument > deadline {
                return true
            }
            try recomputeTerms()
        }
        return true
    }

    /// What making `terms` again is expected to cost a document indexed, in nanoseconds: ~8 us measured at 1M
    /// (`recomputeTerms`), doubled for a loaded machine.
    static let recomputeNanosPerDocument: UInt64 = 16_000

    /// The time now on the clock of a catch-up's `deadline` and `withTimeLimit`'s (`CLOCK_MONOTONIC`), in nanoseconds.
    package static func now() -> UInt64 { mailstore_monotonic_ns() }

    /// Whether `deadline` (nil: none) has passed.
    static func isPast(_ deadline: UInt64?) -> Bool {
        guard let deadline else { return false }
        return mailstore_monotonic_ns() >= deadline
    }

    /// Test-only: seconds a catch-up waits for each event it folds, from `MAILSTORE_TEST_SEARCH_FOLD_DELAY_MS`
    /// (milliseconds, at most 1,000), so that a test can make a small store's catch-up outlast a search's time limit;
    /// nil (no wait) when it is not set. Not for use outside tests.
    static let testFoldDelaySeconds: Double? = ProcessInfo.processInfo.environment["MAILSTORE_TEST_SEARCH_FOLD_DELAY_MS"]
        .flatMap(Double.init).flatMap { $0 > 0 && $0 <= 1_000 ? $0 / 1_000 : nil }

    /// Waits `testFoldDelaySeconds` for each of `events` (tests only; nothing when it is not set).
    static func testFoldDelay(events: Int) {
        if let each = testFoldDelaySeconds, events > 0 { Thread.sleep(forTimeInterval: each * Double(events)) }
    }

    /// Test-only: nanoseconds each step of a build's end waits, from `MAILSTORE_TEST_SEARCH_END_STEP_DELAY_MS`
    /// (milliseconds, at most 1,000), counted in that step's estimate, so that a test can make a small build's end
    /// outlast a search's time limit; 0 (no wait) when it is not set. Not for use outside tests.
    static let testEndStepDelayNanos: UInt64 = ProcessInfo.processInfo.environment["MAILSTORE_TEST_SEARCH_END_STEP_DELAY_MS"]
        .flatMap(UInt64.init).map { min($0, 1_000) * 1_000_000 } ?? 0

    /// Waits `testEndStepDelayNanos` (tests only; nothing when it is not set).
    static func testEndStepDelay() {
        if testEndStepDelayNanos > 0 { Thread.sleep(forTimeInterval: Double(testEndStepDelayNanos) / 1e9) }
    }

    /// The most emails indexed without their body that a catch-up names one by one (`tellUnreadBodies`); the rest
    /// are counted.
    static let maxUnreadBodiesNamed = 10

    /// Counts `u`, an email the batch being written indexes without its body, and keeps what to say of it (the
    /// first `maxUnreadBodiesNamed` of a catch-up). Call under `lock`.
    func noteUnreadBody(_ u: UnreadBody) {
        unreadBodies += 1
        guard unreadBodyNotes.count < SearchIndex.maxUnreadBodiesNamed else { return }
        unreadBodyNotes.append("email \(u.emailID) (event \(u.sequence)) is indexed without its body, its raw message unreadable "
            + "(\(u.reason)): search finds it by the headers and snippet its event carries. Restore log/ from a backup (docs/operations.md); "
            + "`mailstore verify` lists the damaged blobs")
    }

    /// Tells `notice` of the emails indexed without their body since `before` (`unreadBodies`): each of the first
    /// `maxUnreadBodiesNamed`, then how many more.
    func tellUnreadBodies(since before: Int, notice: (String) -> Void) {
        let (count, notes) = locked { () -> (Int, [String]) in
            defer { unreadBodyNotes = [] }
            return (unreadBodies - before, unreadBodyNotes)
        }
        for n in notes { notice(n) }
        if count > notes.count {
            notice("\(count) emails in all are indexed without their body, their raw message unreadable (\(count - notes.count) more "
                + "than named above); restore log/ from a backup (docs/operations.md); `mailstore verify` lists the damaged blobs")
        }
    }

    /// `catchUp`'s fold of the events after `start` through `head`; false when it stopped at `deadline` (everything
    /// folded before it committed).
    private func foldCatchUp(log: EventLog, head: UInt64, start: UInt64, deadline: UInt64?,
                             progress: ((UInt64, UInt64) -> Void)?) throws -> Bool {
        if head - start >= SearchIndex.pipelineThreshold && ProcessInfo.processInfo.activeProcessorCount > 1 {
            let feed = SearchBatchFeed(log: log, from: start + 1, through: head, batchBytes: batchByteLimit)
            defer { feed.finish() }
            if bulk {
                // Up to `bulkBatchesPerTransaction` batches per transaction; no other connection has the file.
                var ended = false
                while !ended {
                    try locked {
                        try db.transaction {
                            for _ in 0..<SearchIndex.bulkBatchesPerTransaction {
                                guard let batch = try feed.next() else { ended = true; return }
                                try writeRows(batch)
                                SearchIndex.testFoldDelay(events: batch.events.count)
                                progress?(batch.last - start, head - start)
                                if SearchIndex.isPast(deadline) { return }
                            }
                        }
                    }
                    if !ended && SearchIndex.isPast(deadline) { return try checkpoint() >= head }
                }
                return true
            }
            while let batch = try feed.next() {
                try write(batch)
                SearchIndex.testFoldDelay(events: batch.events.count)
                progress?(batch.last - start, head - start)
                if batch.last < head && SearchIndex.isPast(deadline) { return false }
            }
            return true
        }
        let reader = try SearchBatchReader(log: log, batchBytes: batchByteLimit)
        func commit(through last: UInt64) throws {
            try write(reader.take(through: last))
            progress?(last - start, head - start)
        }
        var stopped = false
        try log.scan(from: start + 1, filter: ScanFilter(types: SearchIndex.foldedTypes)) { ev in
            if ev.envelope.sequence > head { return false }
            // Past the deadline: the events before this one are committed, and the fold stops.
            if SearchIndex.isPast(deadline) {
                try commit(through: ev.envelope.sequence - 1)
                stopped = true
                return false
            }
            SearchIndex.testFoldDelay(events: 1)
            try reader.add(ev)
            if reader.isFull { try commit(through: ev.envelope.sequence) }
            return true
        }
        if stopped { return false }
        try commit(through: head)
        return true
    }

    /// Writes a prepared batch and the checkpoint `batch.last` in one transaction (events at or before the
    /// checkpoint already written, by another process meanwhile, are skipped).
    func write(_ batch: PreparedSearchBatch) throws {
        try locked {
            try db.transaction { try writeRows(batch) }
        }
    }

    /// Writes a prepared batch's rows and the checkpoint `batch.last` inside the caller's transaction, under `lock`
    /// (events at or before the checkpoint are skipped).
    func writeRows(_ batch: PreparedSearchBatch) throws {
        let cp = UInt64(max(0, try metaValue("checkpoint") ?? 0))
        guard batch.last > cp else { return }
        // `terms` is kept only where it is current up to this batch (another writer may have left it behind).
        pendingTermDocuments = try countsTerms && termsCurrent() ? [] : nil
        let anyOwnDraft = try statement("SELECT EXISTS(SELECT 1 FROM own_drafts)")
        mayHaveOwnDrafts = try anyOwnDraft.step() && anyOwnDraft.int(0) != 0
        anyOwnDraft.reset()
        insertedRows.removeAll(keepingCapacity: true)
        defer { insertedRows.removeAll(keepingCapacity: true) }
        for (i, ev) in batch.events.enumerated() where ev.envelope.sequence > cp {
            guard let event = batch.decoded[i] else { continue }
            try apply(event, account: ev.envelope.account, sequence: ev.envelope.sequence, document: batch.documents[i])
        }
        for u in batch.unreadBodies where u.sequence > cp { noteUnreadBody(u) }
        try addPendingTerms(through: batch.last)
        try statement("INSERT OR REPLACE INTO meta(key, value) VALUES('checkpoint', ?)").run([.int(Int64(batch.last))])
        if let link = batch.link {
            try statement("INSERT OR REPLACE INTO meta(key, value) VALUES('log-link', ?)")
                .run([.text("\(batch.last):" + Hex.lowercase(link))])
        }
    }

    /// Folds the event at `sequence` (inside the caller's transaction); `document` is the `EmailReceived`'s, built
    /// by `SearchBatchReader`.
    func apply(_ event: DomainEvent, account: String, sequence: UInt64, document: SearchDocument?) throws {
        if let changes = CopyChange.changes(of: event) {
            for c in changes { try change(c, sequence: sequence) }
            return
        }
        switch event {
        case .emailReceived(let p):
            // Our drafts' copies in the server's Drafts folder are drafts, not mail (as in the thread list).
            if mayHaveOwnDrafts {
                let own = try statement("SELECT 1 FROM own_drafts WHERE account = ? AND message_id = ?")
                try own.bind([.text(account), .text(p.messageKey)])
                let isOwnDraft = try own.step()
                own.reset()
                if isOwnDraft { return }
            }
            try insert(document ?? SearchDocument(p, account: account, raw: nil), sequence: sequence)
        case .draftCopyChanged(let p):
            if p.change == .appending || p.change == .stored, !p.messageID.isEmpty {
                try statement("INSERT OR IGNORE INTO own_drafts(account, message_id) VALUES(?, ?)").run([.text(account), .text(p.messageID)])
                mayHaveOwnDrafts = true
            }
        case .emailExpunged(let p):
            try delete(emailID: p.emailID, sequence: sequence)
        case .flagsChanged(let p):
            try change(CopyChange(emailID: p.emailID, flags: p.flags), sequence: sequence)
        case .emailCategorized(let p):
            let new = Int64(p.category.rawValue)
            guard let row = try currentDocument(emailID: p.emailID), new != row.category else { return }
            try supersede(row, at: sequence)
            try statement("UPDATE docs SET category = ?, since = ? WHERE rowid = ?").run([.int(new), .int(Int64(sequence)), .int(row.rowid)])
        default:
            break
        }
    }

    /// Indexes `d`, the document of the `EmailReceived` at `sequence`.
    func insert(_ d: SearchDocument, sequence: UInt64) throws(SearchIndexError) {
        let rowid = try freeRowID(second: d.date, emailID: d.emailID)
        // One statement both finds a copy indexed before (its email id taken: nothing inserted) and inserts a new one,
        // where a look-up by email id and an insert had each searched that index (the look-up: ~3% of a rebuild's
        // writing thread in a profile at 100K; timed, within the machine's spread).
        // A single-row upsert opens no statement savepoint, so FTS5 keeps the postings it gathers in memory (see
        // `supersede`).
        try statement("""
            INSERT INTO docs(rowid, email_id, account, folder, message_id, flags, date, size, subject, participants, since)
            VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(email_id) DO NOTHING
            """).run([.int(rowid), .text(d.emailID), .text(d.account), .text(d.folder), d.messageID.map { .text($0) } ?? .null,
                      .int(d.flags), .int(d.date), .int(d.size), .text(d.subject), .text(d.participants), .int(Int64(sequence))])
        guard db.changes == 1 else {
            // The same copy seen again: refresh where it is and its flags, as the threads view does.
            guard let row = try currentDocument(emailID: d.emailID) else {
                throw .sqlite(call: "insert into docs", code: SQLITE_CORRUPT, message: "a copy neither inserted nor found by its email id")
            }
            let bits = (row.flags & SearchFlags.attachment) | (d.flags & ~SearchFlags.attachment)
            guard bits != row.flags || row.folder != d.folder else { return }
            try supersede(row, at: sequence)
            try statement("UPDATE docs SET folder = ?, flags = ?, since = ? WHERE rowid = ?")
                .run([.text(d.folder), .int(bits), .int(Int64(sequence)), .int(row.rowid)])
            return
        }
        insertedRows[CurrentDocument.stored(d.emailID)] = CurrentDocument(inserted: d, rowid: rowid, sequence: sequence)
        let columns = d.textColumns
        try statement("INSERT INTO doc_text(rowid, seq, digest) VALUES(?, ?, ?)")
            .run([.int(rowid), .int(Int64(sequence)), .blob(d.textDigest ?? digest(columns))])
        try statement(SearchIndex.ftsInsert).run([.int(rowid)] + columns.map { .text($0) })
        pendingTermDocuments?.append(columns)
    }

    /// The insert of a document into `fts` (`SearchSchema.textInsert`).
    static let ftsInsert = SearchSchema.textInsert(into: "fts")

    /// A rowid in the date's second not yet taken: a slot from the email id's hash, then the next free one.
    /// Taken means its terms are in `fts`, which `doc_text` tells (a removed document whose text was damaged
    /// keeps its terms and its rowid, see `delete`).
    func freeRowID(second: Int64, emailID: String) throws(SearchIndexError) -> Int64 {
        let base = SearchSchema.rowid(atSecond: second)
        let slots: Int64 = 1 << SearchSchema.slotBits
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in emailID.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        var slot = Int64(h % UInt64(slots))
        let probe = try statement("SELECT 1 FROM doc_text WHERE rowid = ?")
        for _ in 0..<slots {
            try probe.bind([.int(base + slot)])
            let taken = try probe.step()
            probe.reset()
            if !taken { return base + slot }
            slot = (slot + 1) % slots
        }
        throw .query("more than \(slots) messages dated in one second")
    }

    /// Removes an expunged copy from `docs` at `sequence`: its row as it was goes to `docs_past` (a search as of a
    /// point before the expunge still finds it), and its terms and its `doc_text` row stay, so its rowid is never
    /// given to another document. Results read `docs` (or, as of a point, the version then), never `fts` alone.
    func delete(emailID: String, sequence: UInt64) throws(SearchIndexError) {
        guard let row = try currentDocument(emailID: emailID) else { return }
        try supersede(row, at: sequence)
        try statement("DELETE FROM docs WHERE rowid = ?").run([.int(row.rowid)])
        // A row with no `doc_text` (a damaged index) gets one, so the rowid stays taken (`freeRowID`).
        try statement("INSERT OR IGNORE INTO doc_text(rowid, seq, digest) VALUES(?, 0, x'')").run([.int(row.rowid)])
    }

    /// The copy `emailID`'s row in `docs`, or nil when it has none: the row the batch being written inserted, taken
    /// from `insertedRows` (every caller changes the row next, so it is kept no longer), else read by email id. Debug
    /// builds check a row taken against the row read back.
    func currentDocument(emailID: String) throws(SearchIndexError) -> CurrentDocument? {
        if let kept = insertedRows.removeValue(forKey: CurrentDocument.stored(emailID)) {
            assert((try? storedDocument(emailID: emailID)).map { $0 == kept } ?? true, "the row kept for \(emailID) differs from the row in docs")
            return kept
        }
        return try storedDocument(emailID: emailID)
    }

    /// The copy `emailID`'s row as `docs` holds it, or nil when it has none.
    private func storedDocument(emailID: String) throws(SearchIndexError) -> CurrentDocument? {
        let find = try statement("SELECT rowid, since, \(CurrentDocument.versionColumns) FROM docs WHERE email_id = ?")
        try find.bind([.text(emailID)])
        defer { find.reset() }
        return try find.step() ? CurrentDocument(find) : nil
    }

    /// Keeps `row` in `docs_past` as the version that held until `sequence`, before the event at `sequence` changes
    /// it. Nothing when the row's values were set by that same event (one event changing a copy twice): no point
    /// of the log saw them.
    ///
    /// Inserted with its values bound: one row, no statement that may write several (an `INSERT … SELECT`, a
    /// `REPLACE`). Those open a statement savepoint, and FTS5 writes out the postings it gathers in memory at every
    /// savepoint: a rebuild at 100K generated messages took twice as long, each `EmailCategorized` cutting a segment.
    func supersede(_ row: CurrentDocument, at sequence: UInt64) throws(SearchIndexError) {
        let until = Int64(sequence)
        guard row.since < until else { return }
        try statement("""
            INSERT OR IGNORE INTO docs_past(rowid, since, until, \(CurrentDocument.versionColumns))
            VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).run([.int(row.rowid), .int(row.since), .int(until)] + row.values)
    }

    /// A move and/or flag change of one copy, by the event at `sequence`.
    func change(_ c: CopyChange, sequence: UInt64) throws(SearchIndexError) {
        guard let row = try currentDocument(emailID: c.emailID) else { return }
        let flags = c.applied(to: SearchFlags.flags(row.flags))
        let newBits = SearchFlags.bits(flags, hasAttachment: row.flags & SearchFlags.attachment != 0)
        let newFolder = c.folder ?? row.folder
        guard newBits != row.flags || newFolder != row.folder else { return }
        try supersede(row, at: sequence)
        try statement("UPDATE docs SET folder = ?, flags = ?, since = ? WHERE rowid = ?")
            .run([.text(newFolder), .int(newBits), .int(Int64(sequence)), .int(row.rowid)])
    }
}

extension SearchIndex {
    /// The text columns a `doc_text` row (`sequence`, `kept` digest) stands for, derived again from `log`; nil
    /// unless the row names an event and its digest is that of the columns derived. Call under `lock`.
    func derivedText(sequence: Int64, digest kept: [UInt8], log: EventLog) -> [String]? {
        guard sequence > 0, kept.count == SearchTextDigest.byteCount,
              let columns = SearchIndex.indexedColumns(at: UInt64(sequence), log: log), digest(columns) == kept else { return nil }
        return columns
    }

    /// The text columns of the document of the `EmailReceived` at `sequence`, derived from the log and the
    /// message as a fold derives them; nil when that event is not one or does not decode, or the log cannot be read
    /// (a message the store does not have, or whose blob is damaged, is indexed without its body, and derived so again).
    static func indexedColumns(at sequence: UInt64, log: EventLog) -> [String]? {
        guard let stored = try? log.event(at: sequence),
              case .emailReceived(let p)? = try? stored.decode() else { return nil }
        let raw: [UInt8]?
        do {
            raw = try log.blob(p.blob, zstd: nil, hasher: nil)
        } catch let error as EventLogError where error.isCorruptBlob {
            // As the fold indexed it: without its body (`SearchBatchReader.add`).
            raw = nil
        } catch {
            return nil
        }
        return SearchDocument(p, account: stored.envelope.account, raw: raw).textColumns
    }
}
