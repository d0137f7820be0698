import CSQLite
import CSQLiteFolderVFS
import EventLog
import EventModel
import Foundation
import Glibc
import LMDB

/// The full-text search view: an SQLite FTS5 database folded from the log (and the blob store), with its
/// own checkpoint and schema version. Disposable like every view: `rebuild` makes it again from the log.
///
/// Not thread-safe by itself: one `SearchIndex` is used from one thread at a time (a lock guards it).
/// Several processes may open the same file: SQLite's locking serialises the writers, and each fold reads
/// the checkpoint inside its write transaction, so two catching-up processes never fold an event twice.
package final class SearchIndex: @unchecked Sendable {
    /// The index file's name inside its folder.
    package static let fileName = "index.sqlite"
    /// The switch lock's name inside the index's folder: every transaction on the live file holds it shared, and a
    /// rebuild holds it exclusively while it renames its new file into place (`CSQLiteFolderVFS`). Without it, a
    /// rename during another process's write transaction left that transaction's rollback journal beside the new file,
    /// and the next process to read took it for a crashed writer's and rolled the old file's pages into the new one
    /// ("database disk image is malformed" until the next rebuild).
    package static let switchLockName = "SWITCH"
    /// The longest a rebuild waits for the transactions under way on the live file to end before it renames its
    /// new file into place: a search holds one for as long as it runs (`mailstore search --timeout`, at most 3,600 s;
    /// `verify --views` for its comparison's walk), and new ones wait meanwhile (up to their busy timeout).
    static let switchWaitSeconds = 3_660.0

    let db: SQLiteConnection
    let lock = NSLock()
    /// The index file.
    package let path: String
    var statements: [String: SQLiteStatement] = [:]
    /// Digests documents' text (`doc_text`); used under `lock`.
    let digest: SearchTextDigest
    /// Expands prefix terms into words (made on the first query with one); used under `lock`.
    var prefixWords: PrefixWords?
    /// Rows times words a statement with expanded prefixes steps before it goes on with FTS5's prefixes
    /// (`defaultExpandedRowWords`; tests set it lower).
    var expandedRowWords = SearchIndex.defaultExpandedRowWords
    /// Seconds a statement with expanded prefixes runs before it goes on with FTS5's prefixes
    /// (`defaultExpandedSeconds`; tests set it to 0).
    var expandedSeconds = SearchIndex.defaultExpandedSeconds
    /// Statements with expanded prefixes stopped at their budget (rows or time) and gone on with FTS5's prefixes on
    /// this connection. Used under `lock`.
    var expandedFallbacks = 0
    /// The most postings of a query's prefixes left to FTS5's prefix query, which merges them in memory
    /// (`defaultMaxMergedPostings`; tests set it lower). Used under `lock`.
    var maxMergedPostings = SearchIndex.defaultMaxMergedPostings
    /// The words of a heavy prefix one statement of a set reads (`QueryCompiler.setChunkWords`; tests set fewer).
    /// Used under `lock`.
    var setChunkWords = QueryCompiler.defaultSetChunkWords
    /// Documents in the first rowid window of a search that tests text in sets (`defaultFirstSetWindow`; tests set
    /// fewer).
    var firstSetWindow = SearchIndex.defaultFirstSetWindow
    /// The most words a prefix term expands to (`PrefixWords.maxWords`; tests set fewer, to leave prefixes to FTS5's
    /// prefix query). Used under `lock`.
    var maxExpandedWords = PrefixWords.maxWords
    /// The most copies of a page's threads matched together (`defaultMaxCopiesMatchedTogether`; tests set fewer).
    var maxCopiesMatchedTogether = SearchIndex.defaultMaxCopiesMatchedTogether
    /// What a catch-up's batch may hold before it is cut short (`batchBytes`; tests set less, so a few crowded
    /// messages are cut as thousands are). Set before a catch-up.
    var batchByteLimit = SearchIndex.batchBytes
    /// Rows put in sets of every match (`matchSet`) on this connection: what a search's sets cost. Used under `lock`.
    var setRowsMade = 0
    /// Numbers the `MatchSets` tables made on this connection; used under `lock`.
    var setsMade = 0
    /// Statements run to find the other matching copies of a page's threads (`threadMatches`, `matching`): what a
    /// thread page costs beyond its own statement. Used under `lock`.
    var threadStatements = 0
    /// True for a file being built aside (`init(path:bulk:)`): its catch-up writes several batches per transaction.
    let bulk: Bool
    /// Whether this connection made `fts5vocab`'s table in its temp schema (`vocabularyTable()`); used under `lock`.
    var madeVocabularyTable = false
    /// Tokenizes a live batch's documents for `terms` (made on the first batch that counts them); used under `lock`.
    var termCounter: TermCounter?
    /// Whether the catch-up under way keeps `terms` batch by batch (`termsCountedCatchUp`); used under `lock`.
    var countsTerms = false
    /// The text columns of the documents the batch being written indexed, when it keeps `terms` current (nil: it
    /// does not); used under `lock`.
    var pendingTermDocuments: [[String]]?
    /// Whether `own_drafts` may hold a row, as the batch being written found it (then set by each insert): a message
    /// is looked up there only when it may (a store whose drafts were never written from here has none: one look-up
    /// per batch instead of one per message). Used under `lock`.
    var mayHaveOwnDrafts = true
    /// The rows the batch being written inserted, by email id as stored (`CurrentDocument`): a copy's
    /// `EmailCategorized` mostly comes in the same batch as the copy, and `currentDocument` then takes its row from here
    /// rather than looking it up by email id. Every change of a row reads it through `currentDocument` first, which
    /// takes it out; all go when the batch ends (at most a batch's documents, `SearchBatchReader`'s). Used under `lock`.
    var insertedRows: [String: CurrentDocument] = [:]
    /// Searches on this connection whose prefixes' words were listed from `terms` (not `fts5vocab`): what a
    /// search's listing cost. Used under `lock`.
    var termListings = 0
    /// The log sequence queries see the mail as of (nil: now): each copy with the folder, flags and category it had
    /// then, only the copies received by then and not yet expunged (`docs_past`, `QueryCompiler.asOf`). Set before
    /// the index is queried, on an index folded at least up to that sequence.
    package var asOf: UInt64?
    /// `pointRowids()` for a point and the checkpoint it was read at; used under `lock`.
    var pointRowidsCache: (asOf: UInt64, checkpoint: Int64, rows: PointRowids)?
    /// The most rows held at a point of each kind whose spans a search as of it reads (`defaultMaxHeldRows`; tests
    /// set it lower, so a search past it runs as one statement). Used under `lock`.
    var maxHeldRows = SearchIndex.defaultMaxHeldRows {
        didSet { heldRowsCache = nil }
    }
    /// The rowids held at a point read for `heldSpans` (nil: more than `maxHeldRows`), for a point and the checkpoint
    /// they were read at, and the spans last made of them for a number of words and `pointSpanGap`; used under `lock`.
    var heldRowsCache: (asOf: UInt64, checkpoint: Int64, rows: [Int64]?, spans: (words: Int, gap: Int, spans: [ClosedRange<Int64>])?)?
    /// The most a set of the matches among the rows held at a point may cost (`defaultPointSetSeeks`; tests set 0,
    /// so the set of every match is made instead). Used under `lock`.
    var pointSetSeeks = SearchIndex.defaultPointSetSeeks
    /// Documents between two rows held at a point past which they are in spans of their own (`defaultPointSpanGap`;
    /// tests set 0, so each row held is a span). Used under `lock`.
    var pointSpanGap = SearchIndex.defaultPointSpanGap
    /// The most versions held at a point that a search as of it seeks by rowid (`QueryCompiler.maxPastRowids`;
    /// tests set it lower, so the arm that steps the matches runs too). Used under `lock`.
    var maxPastRowids = QueryCompiler.maxPastRowids {
        didSet { pointRowidsCache = nil }
    }
    /// Whether a search reads by rowid the few rows its filters admit (`restriction`; tests turn it off to compare).
    var restrictsByFilters = true
    /// Searches on this connection that read by rowid the rows their filters admit (`restriction`). Used under `lock`.
    var filterRestrictions = 0
    /// Whether the file was opened read-only (`init(path:bulk:readOnly:)`): it is never caught up.
    package let readOnly: Bool
    /// A folder removed when this index is released: the private folder of an index built in the temporary folder for
    /// a store whose index folder cannot be written (`openReadOnly`).
    var removesFolder: String?
    /// Whether this is a private index, removed when released (`removesFolder`).
    package var isPrivate: Bool { removesFolder != nil }
    /// The scratch folder `removesFolder` is, held (its lock) while this index lives, then removed with its lock file.
    var scratchOwner: ScratchFolder?
    /// Emails the catch-ups on this connection indexed without their body, their raw message unreadable (a damaged
    /// blob: `SearchBatchReader.add`). Used under `lock`.
    package internal(set) var unreadBodies = 0
    /// What to tell of the emails indexed without their body since the catch-up under way began (at most
    /// `maxUnreadBodiesNamed`, `tellUnreadBodies`). Used under `lock`.
    var unreadBodyNotes: [String] = []

    /// Opens the index file at `path`, creating its tables when new. Throws `schemaMismatch` when the file
    /// holds another schema version. `bulk`: for a file being built aside (renamed into place only when
    /// complete, or a scratch file): no journal and no syncs, and a catch-up writes several batches per transaction;
    /// `builtAside(at:)` opens one with the build's FTS5 settings, and `rebuild` sets the live journal before renaming.
    ///
    /// `readOnly`: for an index whose folder cannot be written (a store on a read-only filesystem, a backup on read-only
    /// media): the file is opened read-only and nothing is written to it, nor beside it; one that has no tables, or
    /// another schema version, is `schemaMismatch`. Such an index is searched as it stands, never caught up
    /// (`openReadOnly`).
    ///
    /// `waitDeadline` (`SearchIndex.now()`'s clock; nil: none): when the waits for a lock of the open and of the
    /// connection's transactions end (``waitDeadline``).
    package init(path: String, bulk: Bool = false, readOnly: Bool = false, waitDeadline: UInt64? = nil) throws(SearchIndexError) {
        self.path = path
        self.bulk = bulk
        self.readOnly = readOnly
        db = try SQLiteConnection(path: path, create: !readOnly, readOnly: readOnly,
                                  switchLock: bulk ? nil : SQLiteConnection.folder(of: path) + "/" + SearchIndex.switchLockName,
                                  waitDeadline: waitDeadline ?? 0)
        digest = try SearchTextDigest()
        // A newer build's file is recognised before anything is written to it (its tables may differ from this
        // build's): it is left to that build (`newerSchema`), not rebuilt down to this one's version.
        // The version read here is the one the checks after `SearchSchema.create` use (that adds no meta row).
        let found = try storedSchemaVersion()
        if let found, found > Int64(SearchSchema.version) {
            throw .newerSchema(file: path, found: Int(found), supported: SearchSchema.version)
        }
        if readOnly {
            // Its tables and query indexes as they are (made when it was built); temporary tables in memory.
            guard found == Int64(SearchSchema.version) else { throw .schemaMismatch(found: Int(found ?? 0), expected: SearchSchema.version) }
            try db.exec("PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384;")
            return
        }
        // A file being built has no journal; a live one keeps SQLite's default rollback journal (set when it
        // was built: changing it here would need every other connection closed).
        // 16 KiB pages for a new file (a no-op on one that has tables): FTS5's segments are written and read
        // back in fewer, larger pages. At 100K generated messages a rebuild took 6.2-6.9 s against 7.5-7.6 s
        // with 4 KiB, the file 332 MB against 360, and first-25 queries were as fast or faster (2026-11-25).
        try db.exec("PRAGMA page_size=\(SearchIndex.pageSize);")
        try db.exec(bulk ? "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" : "PRAGMA synchronous=NORMAL;")
        // SQLite's page cache: 8 MiB while a file is built (a bigger one did not build faster: 64 MiB took the
        // same time as 4), 16 MiB for queries.
        try db.exec("PRAGMA temp_store=MEMORY; PRAGMA cache_size=\(bulk ? -8_192 : -16_384);")
        try db.exec(SearchSchema.create)
        if let found, found != Int64(SearchSchema.version) {
            throw .schemaMismatch(found: Int(found), expected: SearchSchema.version)
        }
        // The indexes only queries read: a file built aside gets them once its rows are in (`rebuild`).
        if !bulk { try makeQueryIndexes() }
        if found == nil {
            try db.exec("INSERT OR IGNORE INTO meta(key, value) VALUES('schema_version', \(SearchSchema.version))")
            // An empty `terms` is the vocabulary of an empty `fts` (a file built aside gets it when complete).
            if !bulk { try db.exec("INSERT OR IGNORE INTO meta(key, value) VALUES('\(SearchIndex.termsKey)', 0)") }
        }
    }

    deinit {
        if let removesFolder { try? FileManager.default.removeItem(atPath: removesFolder) }
    }

    /// Makes the indexes only queries read (`SearchSchema.queryIndexes`), sorting their keys in temporary files:
    /// with the connection's `temp_store = MEMORY`, SQLite's sorter held every key of an index it made in memory (a
    /// 1M-message `replay` peaked at 220 MiB, 187 MiB of it anonymous, where the aim is 200 MB; two such indexes of 1M
    /// rows took 70 MB more than on disk, and longer). On disk the sorter holds about `cache_size` of them at a time,
    /// in files made in the index's own folder (`SQLiteConnection`: not the system's temporary one, since they hold
    /// the indexed keys: folders, accounts, Message-IDs, email ids), mode 0600 and unlinked as they are made.
    /// Switching the store drops the connection's temporary tables, so this runs before any is made: on open, and
    /// in a build before its vocabulary is read.
    /// `statements`: those of `SearchSchema.queryIndexes` to run (a build's end makes them one at a time).
    func makeQueryIndexes(_ statements: String = SearchSchema.queryIndexes) throws(SearchIndexError) {
        precondition(!madeVocabularyTable, "the query indexes are made before any temporary table")
        try db.exec("PRAGMA temp_store=FILE;")
        do {
            try db.exec(statements)
        } catch {
            try? db.exec("PRAGMA temp_store=MEMORY;")
            throw error
        }
        try db.exec("PRAGMA temp_store=MEMORY;")
    }

    /// The page size of a new index file.
    static let pageSize = 16_384

    /// FTS5's `automerge` while a file is built aside: none. Each commit of a build writes its postings as a new
    /// segment; FTS5 merges a level's segments only once `buildCrisisMerge` of them are there, and the build ends by
    /// merging every segment into one (`mergeAllSegments`), so a posting is written about three times (its segment, a
    /// merge of 64, the final merge), where merging 8 at a time wrote it once per level too. `replay --view search` at
    /// 1M generated messages, two pairs alternated (2026-12-02): 126.4 and 119.6 s against 160.1 and 132.2 s (CPU
    /// 158 and 153 s against 167 and 166 s), the same peak (89 MB) and the same merged index; at 100K the same time
    /// either way. (On 2026-11-26 merging 8 at a time had beaten FTS5's default 4 at 100K: 9.5-10.3 s against
    /// 11.0-12.9 s.) A top-25 query of the merged index reads one b-tree per term instead of one per segment.
    static let buildAutomerge = 0

    /// FTS5's `crisismerge` while a file is built aside: a level's segments are merged once this many are there
    /// (FTS5's default, 16, is set again before the file goes live). Each merge holds a cursor per segment: a page of
    /// each, not their postings.
    static let buildCrisisMerge = 64

    /// FTS5's default `crisismerge`, set again before a built file goes live.
    static let liveCrisisMerge = 16

    /// FTS5's default `automerge`, set again before a built file goes live, where syncs add a few documents at
    /// a time.
    static let liveAutomerge = 4

    /// The bytes FTS5 gathers in memory before writing them out as a segment, while a file is built aside: each
    /// transaction of a build (`bulkBatchesPerTransaction`) fills it about once. With FTS5's default (1 MiB) and
    /// 500-event transactions, a build wrote ~2.5 GB into the file at 100K generated messages for an index of
    /// 170 MB: small segments merged level by level. With 8 MiB and 4,000-event transactions it wrote ~1.1 GB
    /// (2026-11-29); the process's peak grew by ~4 MB.
    static let buildHashBytes = 8 << 20

    /// FTS5's default, set again before a built file goes live (a live transaction adds a few documents).
    static let liveHashBytes = 1 << 20

    /// Sets FTS5's `automerge`, `crisismerge` and `hashsize` (stored in the file's FTS5 configuration) to a build's
    /// (`buildAutomerge`, `buildCrisisMerge`, `buildHashBytes`) or to a live index's (FTS5's defaults).
    func setFTS5Writing(build: Bool) throws(SearchIndexError) {
        let settings = build
            ? [("automerge", SearchIndex.buildAutomerge), ("crisismerge", SearchIndex.buildCrisisMerge), ("hashsize", SearchIndex.buildHashBytes)]
            : [("automerge", SearchIndex.liveAutomerge), ("crisismerge", SearchIndex.liveCrisisMerge), ("hashsize", SearchIndex.liveHashBytes)]
        for (name, value) in settings { try db.exec("INSERT INTO fts(fts, rank) VALUES('\(name)', \(value))") }
    }

    /// A cached prepared statement.
    func statement(_ sql: String) throws(SearchIndexError) -> SQLiteStatement {
        if let s = statements[sql] { return s }
        let s = try db.prepare(sql)
        statements[sql] = s
        return s
    }

    /// The schema version a file holds, read without writing to it; nil for a file without one (new or empty).
    private func storedSchemaVersion() throws(SearchIndexError) -> Int64? {
        let table = try db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
        guard try table.step() else { return nil }
        return try metaValue("schema_version")
    }

    func metaValue(_ key: String) throws(SearchIndexError) -> Int64? {
        let s = try statement("SELECT value FROM meta WHERE key = ?")
        try s.bind([.text(key)])
        defer { s.reset() }
        return try s.step() ? s.int(0) : nil
    }

    /// The last log sequence folded (0 when empty).
    package func checkpoint() throws -> UInt64 {
        try locked { () throws(SearchIndexError) in UInt64(max(0, try metaValue("checkpoint") ?? 0)) }
    }

    /// The number of documents (email copies) indexed.
    package func documentCount() throws -> Int {
        try locked { () throws(SearchIndexError) in
            let s = try statement("SELECT count(*) FROM docs")
            try s.bind([])
            defer { s.reset() }
            return try s.step() ? Int(s.int(0)) : 0
        }
    }

    /// The value in `slot`, made by `make` and kept there the first time. Call under `lock`.
    func kept<T>(_ slot: ReferenceWritableKeyPath<SearchIndex, T?>, made make: () throws -> T) rethrows -> T {
        if let made = self[keyPath: slot] { return made }
        let made = try make()
        self[keyPath: slot] = made
        return made
    }

    /// Runs `body` holding the index's lock, its statements interrupted past the time limit of the search under way
    /// (`withTimeLimit`).
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try db.watched(body)
    }

    /// Runs `body` (a search on this index: `search`, `searchThreads`, `matching`) within `seconds` (nil: no limit):
    /// its statements are interrupted once that long has passed, and it throws `SearchIndexError.timedOut`; a wait for a
    /// lock ends then too (`SQLITE_BUSY`, `SearchIndexError.isBusy`).
    /// One limit at a time: a search on this index from another thread meanwhile is limited alike.
    /// Why: a query is an argument from outside, and some cost seconds at a million messages (a phrase prefix whose
    /// first word is common and whose matches are few: `a-a*`); a caller states how long it waits.
    /// `until`: the end to interrupt at (`SearchIndex.now()`'s clock) instead of `seconds` from now, when the search's
    /// limit began earlier (a `MailStore.search` whose catch-up took part of it); `seconds` is what the error says.
    package func withTimeLimit<R>(_ seconds: Double?, until: UInt64? = nil, _ body: () throws -> R) throws -> R {
        guard let seconds else { return try body() }
        let end = until ?? (mailstore_monotonic_ns() + UInt64(max(0, min(seconds, 86_400)) * 1e9))
        // Set and cleared under the lock alone: `locked` would arm an interrupter for these writes. Its waits for a lock
        // end there too (a `replay` putting its index in place keeps new transactions waiting).
        let waits = lock.withLock {
            let before = db.waitDeadline
            db.deadline = end
            db.waitDeadline = end
            return before
        }
        defer {
            lock.withLock {
                db.deadline = 0
                db.waitDeadline = waits
            }
        }
        do {
            return try body()
        } catch let error as SearchIndexError where error.isInterrupt && mailstore_monotonic_ns() >= end {
            throw SearchIndexError.timedOut(seconds: seconds)
        }
    }

    // MARK: - Opening a store's index

    /// Opens the index in `folder` (created 0700 when missing; files 0600), rebuilding it from the log when it
    /// is missing, fails to open or has an older schema version (`notice` is told why), then folds the log's
    /// new events. A newer build's index is left as it is: `SearchIndexError.newerSchema` (`rebuild` replaces it
    /// when asked).
    /// An index renamed over by another process's rebuild while this one opened it is opened again (at most
    /// `openAttempts` times in all).
    package static func open(folder: String, log: EventLog, notice: (String) -> Void = { _ in }) throws -> SearchIndex {
        try open(folder: folder, log: log, deadline: nil, notice: notice).index
    }

    /// `open` bounded by `deadline` (`SearchIndex.now()`'s clock; nil: none), folding the log through `limit` (nil:
    /// its head): the catch-up stops at the deadline with what it folded committed (`catchUp(deadline:)`; `complete`
    /// false), and a build (the index missing or not this log's) stops there too, kept aside for the next build to go
    /// on from, with `SearchIndexError.notBuilt` (nothing to search yet). A build is taken up where an earlier one
    /// stopped (`rebuild(resume:)`). `progress`: events folded and to fold, by the catch-up or the build. `switchWait`:
    /// with no deadline, the longest a build waits to be put in place (`rebuild(switchWait:)`).
    package static func open(folder: String, log: EventLog, through limit: UInt64? = nil, deadline: UInt64?,
                             switchWait: Double? = nil, progress: ((UInt64, UInt64) -> Void)? = nil,
                             notice: (String) -> Void = { _ in }) throws -> (index: SearchIndex, complete: Bool) {
        var attempt = 1
        while true {
            do {
                return try openOnce(folder: folder, log: log, through: limit, deadline: deadline, switchWait: switchWait,
                                    progress: progress, notice: notice)
            } catch SearchIndexError.replaced where attempt < openAttempts {
                attempt += 1
            }
        }
    }

    /// Times `open` tries when the file is renamed over under it each time.
    static let openAttempts = 3

    /// `open`'s one attempt.
    private static func openOnce(folder: String, log: EventLog, through limit: UInt64?, deadline: UInt64?, switchWait: Double?,
                                 progress: ((UInt64, UInt64) -> Void)?, notice: (String) -> Void) throws -> (index: SearchIndex, complete: Bool) {
        if let refusal = writeRefusal(folder) {
            return (try openReadOnly(folder: folder, log: log, fileSystemReadOnly: refusal == EROFS, through: limit, deadline: deadline,
                                     progress: progress, notice: notice), true)
        }
        if !FileManager.default.fileExists(atPath: folder) { try StoreDirectory.makePrivateDirectory(folder) }
        removeStaleBuild(folder: folder)
        let index: SearchIndex
        if let current = try openCurrent(folder: folder, deadline: deadline, notice: notice) {
            if let why = try current.logMismatch(log: log) {
                notice(why)
                // (Another process's rebuild finished meanwhile is taken: a mismatched index is never a fresh one.)
                index = try rebuild(folder: folder, log: log, through: limit, unlessFresh: true, resume: true, deadline: deadline,
                                    switchWait: switchWait, progress: progress, notice: notice)
            } else {
                index = current
            }
        } else {
            index = try rebuild(folder: folder, log: log, through: limit, unlessFresh: true, resume: true, deadline: deadline,
                                switchWait: switchWait, progress: progress, notice: notice)
        }
        let complete = try index.catchUp(log: log, through: limit, deadline: deadline, progress: progress, notice: notice)
        return (index, complete)
    }

    /// Why this process may not write in `folder` (or make it, where it is missing: its nearest existing ancestor),
    /// as an error number (`EROFS` on a read-only filesystem, even for root; `EACCES` in a folder of another user's), or
    /// nil when it may.
    static func writeRefusal(_ folder: String) -> Int32? {
        var path = folder
        while access(path, W_OK) != 0 {
            guard errno == ENOENT else { return errno }
            let parent = SQLiteConnection.folder(of: path)
            guard parent != path else { return ENOENT }
            path = parent
        }
        return nil
    }

    /// The index of a store whose index folder cannot be written (`canWrite`): the store's own file opened read-only
    /// when it is this log's and of this build's schema, searched as it stands (when it is behind the log, `notice` is
    /// told how far and why); otherwise an index built from the log in a private folder in the temporary folder,
    /// removed when released (`notice` is told). Nothing in the store is written. Until 2026-12-07 the index was
    /// opened for writing: on a read-only filesystem the open failed and the rebuild it fell back on failed too
    /// (exit 3), though the index was current.
    ///
    /// A private index is built only on a read-only filesystem (`fileSystemReadOnly`): a writable store whose index
    /// folder this user may not write (another user's, left by a `sudo mailstore search`) and whose index cannot be read
    /// as it is fails with the reason, rather than rebuild the whole index at every search.
    ///
    /// The private index is folded through `limit` (nil: the log's head) and bounded by `deadline` (nil: none): stopped
    /// there, it is removed and `SearchIndexError.privateNotBuilt` thrown (nothing is kept: the next search builds it
    /// again). Until 2026-12-07 it was built with no bound, past the search's `--timeout`. `progress`: its events
    /// folded and to fold.
    static func openReadOnly(folder: String, log: EventLog, fileSystemReadOnly: Bool, through limit: UInt64? = nil,
                             deadline: UInt64? = nil, progress: ((UInt64, UInt64) -> Void)? = nil,
                             notice: (String) -> Void) throws -> SearchIndex {
        let file = folder + "/" + fileName
        var why = "is missing"
        if FileManager.default.fileExists(atPath: file) {
            do {
                let index = try SearchIndex(path: file, readOnly: true, waitDeadline: deadline)
                if let mismatch = try index.logMismatch(log: log) {
                    why = "is not this log's (\(mismatch))"
                } else {
                    let checkpoint = try index.checkpoint(), head = try log.head().sequence
                    if checkpoint < head {
                        notice("the search index's folder \(folder) cannot be written (a read-only filesystem or folder), so the "
                            + "index is searched as it stands: folded through event \(checkpoint) of \(head), the mail of the last "
                            + "\(head - checkpoint) events is not searched; a search where the store can be written brings it up to date")
                    }
                    return index
                }
            } catch let e as SearchIndexError {
                if case .newerSchema = e { throw e }
                if e.isBusy { throw e }
                why = "cannot be used (\(e))"
            }
        }
        guard fileSystemReadOnly else {
            throw SearchIndexError.io(folder, "this user may not write the search index's folder and its index \(why): give the "
                + "folder (and its files) back to the store's owner (`chown -R`), or search as that user")
        }
        // In this user's `$TMPDIR/mailstore-scratch-UID/`, its lock held while the index lives: what a killed search
        // leaves there (a copy of the store's words) is removed by the next scratch folder made (it had stayed for good).
        let owner = ScratchFolder(store: nil, kind: "search")
        let scratch = try owner.path()
        notice("the search index's folder \(folder) cannot be written (a read-only filesystem or folder) and its index \(why): "
            + "building a private index in \(scratch), removed afterwards")
        do {
            let built = try rebuild(folder: scratch, log: log, through: limit, deadline: deadline, progress: progress, notice: notice)
            built.removesFolder = scratch
            built.scratchOwner = owner
            return built
        } catch SearchIndexError.notBuilt(let folded, let head, _) {
            owner.remove()
            throw SearchIndexError.privateNotBuilt(folded: folded, head: head)
        } catch {
            owner.remove()
            throw error
        }
    }

    /// Why this index is not `log`'s (what the user is told before it is rebuilt), or nil when it is: the event of its
    /// link (`log-link`, the last event folded and its chain hash, written with each batch) missing from the log or
    /// another there: a log restored from a backup, or another store's index; without a link (an index written
    /// before it was kept), a checkpoint past the log's head.
    ///
    /// A checkpoint past the log's head is a mismatch too, whatever the link: such an index skips every event up to
    /// its checkpoint, so new mail went unindexed, silently. The checkpoint is read before the head: another process's
    /// catch-up meanwhile folds only events the log has by then.
    package func logMismatch(log: EventLog) throws -> String? {
        let cp = try checkpoint()
        let head = try log.head().sequence
        guard cp <= head else {
            return "the search index is folded through event \(cp), past the log's end (\(head)): a log restored from a backup, "
                + "another store's index, or a damaged index; rebuilding it from the log"
        }
        let link: String? = try locked { () throws(SearchIndexError) -> String? in
            let s = try statement("SELECT value FROM meta WHERE key = 'log-link'")
            defer { s.reset() }
            return try s.step() ? s.text(0) : nil
        }
        if let link, let colon = link.firstIndex(of: ":"), let sequence = UInt64(link[..<colon]) {
            guard let hash = try log.chainHash(at: sequence) else {
                return "the search index is folded through event \(sequence), past the log's end (\(head)): a log restored from a "
                    + "backup, or another store's index; rebuilding it from the log"
            }
            guard link[link.index(after: colon)...] == Hex.lowercase(hash) else {
                return "the search index was folded from another log (its event \(sequence) is not this log's): a log restored "
                    + "from a backup, or another store's index; rebuilding it from the log"
            }
            return nil
        }
        return nil
    }

    /// Removes a half-built index (`index.sqlite.building` and its journal) whose builder is gone: nobody holds the
    /// build lock (`BUILD`, freed by the kernel when its holder dies). A `replay` killed midway had left it (158 MiB of
    /// a 200K-event store) until the next rebuild of the index, uncounted by `stats`. Called as the index is opened
    /// (`open`, and by `MailStore` as it opens its views); nothing happens where the folder cannot be written.
    package static func removeStaleBuild(folder: String) {
        let building = folder + "/" + fileName + ".building"
        guard FileManager.default.fileExists(atPath: building) || FileManager.default.fileExists(atPath: building + "-journal"),
              let idle = FileLock.acquire(folder + "/BUILD", exclusive: true, wait: false) else { return }
        defer { idle.unlock() }
        for f in [building, building + "-journal"] { unlink(f) }
    }

    /// The index in `folder` if it opens with this build's schema, else nil (told to `notice` when it exists).
    /// Throws `newerSchema` for a newer build's file, which is left as it is.
    static func openCurrent(folder: String, deadline: UInt64? = nil, notice: (String) -> Void) throws -> SearchIndex? {
        let file = folder + "/" + fileName
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        if try movedAsideIfNotAFile(file, notice: notice) { return nil }
        var attempt = 1
        while true {
            do {
                return try SearchIndex(path: file, waitDeadline: deadline)
            } catch {
                if case .newerSchema = error { throw error }
                // Busy is an index in use, not a damaged one: a rebuild putting its new file in place keeps new transactions
                // waiting (2 s each) while it waits for the searches under way. Tried again, then said so; with a deadline,
                // until then (each wait ends there), not 15 times.
                if error.isBusy {
                    guard deadline == nil ? attempt < busyOpenAttempts : !isPast(deadline) else { throw error }
                    attempt += 1
                    continue
                }
                notice("the search index cannot be used (\(error)); rebuilding it from the log")
                return nil
            }
        }
    }

    /// Times `openCurrent` with no deadline tries an index that stays busy (2 s each, `CSQLiteFolderVFS`'s wait for the
    /// switch lock).
    static let busyOpenAttempts = 15

    /// A new file at `path` set up to be built aside and used only once complete (a rebuild, `verify --views`'s
    /// scratch index): no journal and no syncs (`bulk`), FTS5 merging a level's segments only when 64 are there
    /// (`buildAutomerge`, `buildCrisisMerge`) and gathering `buildHashBytes` of postings before writing one.
    static func builtAside(at path: String) throws -> SearchIndex {
        let fresh = try SearchIndex(path: path, bulk: true)
        try fresh.setFTS5Writing(build: true)
        return fresh
    }

    /// Moves aside something other than a file where the index goes (a folder, a FIFO), which would fail every
    /// rebuild's rename over it, for good; tells `notice`. True when it did.
    static func movedAsideIfNotAFile(_ file: String, notice: (String) -> Void) throws -> Bool {
        var st = stat()
        guard stat(file, &st) == 0, st.st_mode & S_IFMT != S_IFREG else { return false }
        let aside = file + ".not-a-file-\(Int(Date().timeIntervalSince1970))"
        guard rename(file, aside) == 0 else {
            throw SearchIndexError.io(file, "it is not a file and cannot be moved aside (\(String(cString: strerror(errno)))): remove it")
        }
        notice("\(file) was not a file: moved aside to \(aside); rebuilding the search index from the log")
        return true
    }

    /// Builds a new index from the log in `folder/index.sqlite.building`, then renames it over the current
    /// one, which keeps serving the processes that have it open (a rollback-journal file is safe to rename
    /// over). Rebuilds serialize on `folder/BUILD` (an `flock`, freed when its holder dies); with
    /// `unlessFresh`, an index that another process finished meanwhile is used instead of building again.
    ///
    /// `resume`: a build an earlier one kept aside when it stopped at its deadline (`partialSuffix`) is gone on with, when
    /// it is this log's and of this build's schema; otherwise (a `replay`) one kept aside is removed and the build starts
    /// from the log's first event. `deadline` (`SearchIndex.now()`'s clock; nil: none): the build stops at it, or
    /// within its end (FTS5's merge in steps, each query index, the vocabulary: `goOnWithEnd`; they write the file with
    /// no journal, so each step is begun only when expected to fit, never interrupted); what it folded and ended is
    /// kept aside for the next build, and it throws `SearchIndexError.notBuilt`. A build whose end has begun folds no
    /// more events (`endBegunKey`): put in place, the index folds them as a live one. Until the sixteenth round the
    /// end was one block (~50 s at 1M, expected), begun only when all of it was expected to fit: a search with a
    /// shorter `--timeout` never finished a big build.
    ///
    /// The rename waits for other processes' transactions on the old file (searches reading it) until `deadline`, or,
    /// with none, `switchWait` seconds from when that wait begins (nil: `switchWaitSeconds`, a `replay`'s): not done
    /// by then, the whole build is kept aside for the next build to put in place, and it throws
    /// `SearchIndexError.oldIndexInUse`. Until the fifteenth round a search's build (or `search --build-index`'s)
    /// waited there up to `switchWaitSeconds` (3,660 s), past its `--timeout`.
    @discardableResult
    package static func rebuild(folder: String, log: EventLog, through limit: UInt64? = nil, unlessFresh: Bool = false,
                                resume: Bool = false, deadline: UInt64? = nil, switchWait: Double? = nil,
                                progress: ((UInt64, UInt64) -> Void)? = nil, notice: (String) -> Void = { _ in }) throws -> SearchIndex {
        if !FileManager.default.fileExists(atPath: folder) { try StoreDirectory.makePrivateDirectory(folder) }
        let buildLock = try takeBuildLock(folder: folder, deadline: deadline, notice: notice)
        defer { buildLock.unlock() }
        if unlessFresh, let current = try openCurrent(folder: folder, deadline: deadline, notice: { _ in }),
           (try? current.logMismatch(log: log)) == .some(nil) {
            return current
        }
        let file = folder + "/" + fileName
        let building = file + ".building"
        let partial = file + partialSuffix
        for f in [building, building + "-journal"] { unlink(f) }
        do {
            let taken = try resume ? resumedBuild(from: partial, at: building, log: log, notice: notice) : nil
            unlink(partial)
            let fresh = try taken ?? SearchIndex.builtAside(at: building)
            let ending = try fresh.endBegun()
            let folded = try ending || fresh.catchUp(log: log, through: limit, deadline: deadline, progress: progress, notice: notice)
            let ended = folded ? try fresh.goOnWithEnd(before: deadline) : 0
            guard ended == buildEndStages else {
                let checkpoint = try fresh.checkpoint()
                try syncFile(building)
                guard rename(building, partial) == 0 else { throw SearchIndexError.io(partial, String(cString: strerror(errno))) }
                throw SearchIndexError.notBuilt(folded: checkpoint, head: try limit ?? log.head().sequence,
                                                endStages: try fresh.endBegun() ? ended : nil)
            }
            try fresh.setFTS5Writing(build: false)
            try fresh.db.exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL;")
        }
        // Built without syncs: on disk before it is put in place (a power cut after the rename had left a torn index).
        try syncFile(building)
        let switchEnd = deadline ?? switchWait.map { now() + UInt64(max(0, min($0, switchWaitSeconds)) * 1e9) }
        do {
            try putInPlace(building, as: file, folder: folder, until: switchEnd, notice: notice)
        } catch SearchIndexError.oldIndexInUse(let inUse) {
            // Kept whole, flushed: the next build goes on from it (`resume`: only the events since are folded), not anew.
            guard rename(building, partial) == 0 else { throw SearchIndexError.io(partial, String(cString: strerror(errno))) }
            throw SearchIndexError.oldIndexInUse(folder: inUse)
        }
        return try SearchIndex(path: file, waitDeadline: deadline)
    }

    /// Renames the finished build at `building` over the index `file` in `folder`, with no transaction on the old file
    /// under way (`whileNoTransaction`, waiting until `end`).
    private static func putInPlace(_ building: String, as file: String, folder: String, until end: UInt64?,
                                   notice: (String) -> Void) throws {
        try whileNoTransaction(folder: folder, until: end, notice: notice) {
            _ = try movedAsideIfNotAFile(file, notice: { _ in })
            // With no transaction under way, a rollback journal there is a crashed writer's, of the file about to be
            // replaced: rolled back into that file first (by a connection without the guard, which would wait for the
            // lock held here), so that a crash right after the rename leaves no hot journal beside the new file.
            if FileManager.default.fileExists(atPath: file + "-journal") {
                let old = try? SQLiteConnection(path: file, create: false)
                try? old?.exec("SELECT count(*) FROM sqlite_master")
            }
            guard rename(building, file) == 0 else { throw SearchIndexError.io(file, String(cString: strerror(errno))) }
            // Whatever journal is left (a rollback that failed) belongs to the file replaced; what an index of the WAL era
            // left beside the file belongs to no file any more.
            for f in [file + "-journal", file + "-wal", file + "-shm"] { unlink(f) }
        }
    }

    /// The build lock of the index in `folder` (`folder/BUILD`, exclusive), taken once no other process holds it (its
    /// build, a `replay` or a search's, ended or stopped), waiting at most until `deadline` (nil: as long as it takes):
    /// then `SearchIndexError.buildBusy`. `notice` is told after `buildWaitNoticeSeconds` of waiting. Until 2026-12-07
    /// the wait had no bound: a search that had to build the index (missing, or not this log's) while a `replay` or a
    /// `search --build-index` built it waited for that whole build, past its `--timeout`.
    static func takeBuildLock(folder: String, deadline: UInt64?, notice: (String) -> Void) throws -> FileLock {
        let path = folder + "/BUILD"
        let start = now()
        var told = false
        while true {
            if let lock = FileLock.acquire(path, exclusive: true, wait: false) { return lock }
            guard errno == EWOULDBLOCK else { throw SearchIndexError.io(path, String(cString: strerror(errno))) }
            if isPast(deadline) { throw SearchIndexError.buildBusy(folder: folder) }
            if !told, now() - start >= UInt64(buildWaitNoticeSeconds * 1e9) {
                told = true
                notice("waiting for another mailstore process's build of the search index in \(folder) (a `replay`, a `search "
                    + "--build-index` or another search) to end" + (deadline == nil ? "" : ", at most until this search's time limit"))
                if deadline == nil {
                    guard let lock = FileLock.acquire(path, exclusive: true) else {
                        throw SearchIndexError.io(path, String(cString: strerror(errno)))
                    }
                    return lock
                }
            }
            // Polled: `flock` itself waits with no bound.
            usleep(buildLockPollMicroseconds)
        }
    }

    /// Seconds a wait for another process's build lock lasts before it is said (`takeBuildLock`).
    static let buildWaitNoticeSeconds = 2.0
    /// How often a wait bounded by a deadline tries the build lock again (`takeBuildLock`), in microseconds.
    static let buildLockPollMicroseconds: UInt32 = 20_000

    /// The suffix of a build kept aside when it stopped at its deadline (`index.sqlite.partial`), for the next build
    /// to go on from (`rebuild(resume:)`): written only between two of its transactions and flushed to disk before the
    /// rename that makes it, so it is whole (a build killed midway leaves `index.sqlite.building`, removed as stale).
    package static let partialSuffix = ".partial"

    /// The build an earlier one kept aside at `partial` (`partialSuffix`), moved to `building` and opened to go on
    /// with; nil when there is none, or it is not of this build's schema or not this log's (removed: `notice` is told).
    static func resumedBuild(from partial: String, at building: String, log: EventLog, notice: (String) -> Void) throws -> SearchIndex? {
        guard FileManager.default.fileExists(atPath: partial) else { return nil }
        guard rename(partial, building) == 0 else { return nil }
        let why: String
        do {
            let taken = try SearchIndex(path: building, bulk: true)
            guard let mismatch = try taken.logMismatch(log: log) else { return taken }
            why = mismatch
        } catch let e as SearchIndexError {
            if e.isBusy { throw e }
            why = "\(e)"
        }
        unlink(building)
        notice("the search index's build kept aside in \(partial) is not gone on with (\(why)); building it from the log's start")
        return nil
    }

    /// Runs `body` (a rename into place) holding the switch lock of the index in `folder` exclusively: no transaction
    /// on the live file is under way meanwhile, and each later one of a connection to the file renamed over is
    /// refused (`SearchIndexError.replaced`). Takes the lock's gate first (new transactions wait), then waits for the
    /// transactions under way to end, telling `notice` after 2 s, up to `switchWaitSeconds` (the longest a search
    /// may run, `--timeout`) or until `end` (`now()`'s clock; nil: none) when that comes first; throws when the lock
    /// cannot be taken, since renaming without it could damage the new file: `SearchIndexError.oldIndexInUse` when
    /// still held at `end`.
    static func whileNoTransaction(folder: String, until end: UInt64? = nil, notice: (String) -> Void, _ body: () throws -> Void) throws {
        let path = folder + "/" + switchLockName
        var rc: Int32 = 0
        let fd = mailstore_sqlite_switch_gate(path, waitMilliseconds(2_000, until: end), &rc)
        guard fd >= 0 else { throw switchError(path, rc, folder: folder, bounded: end != nil) }
        defer { mailstore_sqlite_switch_release(fd) }
        rc = mailstore_sqlite_switch_take(fd, waitMilliseconds(2_000, until: end))
        if rc == SQLITE_BUSY, !isPast(end) {
            let most = waitMilliseconds(Int32(switchWaitSeconds * 1_000), until: end)
            notice("waiting for other mailstore processes' searches of the search index to end before the rebuilt index is put "
                + "in place (at most \((most + 999) / 1_000) s)")
            rc = mailstore_sqlite_switch_take(fd, most)
        }
        guard rc == SQLITE_OK else { throw switchError(path, rc, folder: folder, bounded: end != nil) }
        try body()
    }

    /// `most` milliseconds, or fewer when `end` (`now()`'s clock; nil: none) comes sooner; 0 (one try) once it has passed.
    static func waitMilliseconds(_ most: Int32, until end: UInt64?) -> Int32 {
        guard let end else { return most }
        let current = now()
        return current >= end ? 0 : Int32(min(UInt64(most), (end - current) / 1_000_000))
    }

    /// Flushes `path` to disk (`fsync`).
    static func syncFile(_ path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SearchIndexError.io(path, String(cString: strerror(errno))) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SearchIndexError.io(path, String(cString: strerror(errno))) }
    }

    /// `whileNoTransaction`'s failure to take the switch lock at `path` (`rc`), in `folder`; `bounded`: its wait had an end.
    private static func switchError(_ path: String, _ rc: Int32, folder: String, bounded: Bool) -> SearchIndexError {
        if rc == SQLITE_BUSY, bounded { return .oldIndexInUse(folder: folder) }
        return rc == SQLITE_BUSY
            ? .io(path, "other mailstore processes kept the search index in use for \(Int(switchWaitSeconds)) s, so the rebuilt "
                + "index was not put in place; run the command again when they end")
            : .io(path, "the lock for putting a rebuilt index in place cannot be taken (\(String(cString: sqlite3_errstr(rc))), "
                + "\(String(cString: strerror(errno)))); check the folder's permissions and free file descriptors")
    }
}
