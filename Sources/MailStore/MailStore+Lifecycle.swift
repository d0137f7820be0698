import EventLog
import EventModel
import Foundation
import LMDB
import Projections
import SearchIndex
import SearchQuery
import Views

/// Rebuilding, verifying and time-travelling the views.
extension MailStore {
    /// Rebuilds the views from the log, blue/green (the old views serve until the new ones are ready): all
    /// of them, or only `view`. Returns how many events were folded; `progress` gets (done, total).
    @discardableResult
    public func replay(view: ViewName? = nil, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> UInt64 {
        if let snapshot { throw MailStoreError.snapshot(sequence: snapshot.sequence) }
        if view == .search { return try replaySearch(progress: progress) }
        // Every view: the search index (SQLite, its own files) is rebuilt on a thread of its own while the views
        // fold on another (`viewsNicenessBesideSearch`): the two share nothing but the log, which each reads in its
        // own transactions.
        let tally = ReplayProgress(progress)
        let search = view == nil ? BackgroundWork { try self.replaySearch { done, total in tally.update(search: done, total) } } : nil
        // Once the index's build has ended, the fold takes the second core too (`ViewStore.secondCoreFree`).
        let secondCoreFree: (@Sendable () -> Bool)? = search.map(MailStore.ended)
        let foldViews: @Sendable () throws -> UInt64 = { [self] in
            var events: UInt64 = 0
            let rebuilt = try ViewStore.replay(store: directory, log: log, views: view.map { [$0.rawValue] }, twoCores: search == nil,
                                               secondCoreFree: secondCoreFree, notice: notice) { done, total in
                events = done
                tally.update(views: done, total)
            }
            viewsLock.lock()
            openedViews = rebuilt
            viewsLock.unlock()
            return events
        }
        let folded = search == nil
            ? Result { try foldViews() }
            : BackgroundWork(niceness: MailStore.viewsNicenessBesideSearch, foldViews).wait()
        // Both end before either's error is thrown: no thread outlives the call.
        let searched = search?.wait()
        let events = try folded.get()
        _ = try searched?.get()
        return events
    }

    /// Whether `work` has ended, asked from another thread.
    private static func ended<T>(_ work: BackgroundWork<T>) -> @Sendable () -> Bool { { work.hasEnded } }

    /// How much lower the views' folding thread runs than the search index's threads while `replay` rebuilds both,
    /// as a nice value added to the thread's (`BackgroundWork(niceness:)`).
    ///
    /// Why: the search index's build ends with ~2.6 s at 100K messages that only one thread can do (FTS5's merge
    /// of its segments into one 1.0-1.3 s, the query indexes 0.7 s, the vocabulary 0.65 s), and the views' fold
    /// cannot help with it. At equal priority the fold took as much of the two cores as the index's two threads
    /// together and ended ~3.5 s before the index, whose end then ran on one core with the other idle. Lowered, the
    /// fold gives the index's threads the cores while all three run, has a core to itself while the index merges,
    /// and takes the second one once the index is done (`ViewStore.secondCoreFree`). 100K `replay` (2026-12-02, AMD
    /// EPYC, alternated with the build before, 3 pairs): 13.3, 13.9 and 12.9 s against 14.8, 15.4 and 13.0 s, both
    /// cores busy to the end, peak 138-141 MiB against 134-136 MiB (the two jobs' ends overlap); at 1M within the
    /// machine's spread: 176.4-196.1 s (4 runs) against 176.9-192.6 s (4), peak 177-185 MiB against 175-182. Not for
    /// `verify --views`: there the views' fold and comparison end after the index's at equal priority already
    /// (15.3 and 16.4 s with it lowered against 14.0 and 14.5 s).
    static let viewsNicenessBesideSearch: Int32 = 4

    /// Rebuilds every view from the log in a scratch place and compares it with the live views, table by
    /// table. Returns the sequence compared at and the differences (empty when the views are right).
    public func compareViewsWithRebuild(progress: ((UInt64, UInt64) -> Void)? = nil) throws
        -> (sequence: UInt64, differences: [ViewDifference]) {
        // The search index is compared on a second thread while the views are rebuilt on this one, both in a scratch
        // folder of the store's (`ScratchFolder`: the rebuilt views and index are a copy of the store's mail).
        // The live views are brought up to the log's end first, a full disk included: left behind it (as a read command
        // leaves them, `latestViews`), they were compared as they stood and found "OK" while thousands of events were
        // not in them.
        let live = try views()
        if snapshot == nil {
            do { try live.catchUp() } catch let e as LMDBError where e.isDiskFull {
                throw LMDBError(code: e.code, operation: "bringing the views up to the log's end before comparing them (\(e.operation))")
            }
        }
        let expected = (Environment.fileSize(Environment.dataFile(live.path)) ?? 0)
            + (Environment.fileSize(searchFolder + "/" + SearchIndex.fileName) ?? 0)
        let scratch = ScratchFolder(store: directory, kind: "verify", expectedBytes: expected, notice: notice)
        defer { scratch.remove() }
        let folder = try scratch.path()
        let searchWork = BackgroundWork { try self.compareSearchWithRebuild(scratchFolder: folder + "/search") }
        let views = Result { try live.compareWithRebuild(twoCores: false, scratchFolder: folder + "/views", progress: progress) }
        let search = try searchWork.wait().get()
        let v = try views.get()
        return (min(v.sequence, search.sequence), v.differences + search.differences)
    }

    /// The store as it was at `point` (a sequence number, or an ISO 8601 time: the last event recorded at
    /// or before it): its views are read from the live views' history at the last window ending at or before the
    /// point, with the events after that end (at most `ViewHistory.windowEvents`) folded into memory
    /// (`ViewStore.past`): nothing is written, the live views serve meanwhile. The returned store reads like this
    /// one and refuses to commit. Views written by an older build keep no history: where they cannot be rebuilt
    /// (a read-only store) the views at the point are folded from the log's start in a scratch folder instead.
    /// Throws `MailStoreError.badPointInTime` for anything else.
    ///
    /// `views`: only these views are folded (the tail then costs what they cost, not what every view does: the
    /// contacts view alone is ~40% of a fold); reading any other view of the returned store throws
    /// `ViewError.unknownTable` rather than showing it at another point. Nil: every view.
    public func asOf(_ point: String, views only: [String]? = nil, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> MailStore {
        let seq = try sequence(asOf: point)
        guard snapshot == nil else { throw MailStoreError.snapshot(sequence: snapshot?.sequence ?? seq) }
        // Made only when something is folded there (the views without a history, a search index as of the point).
        let live = try latestViews()
        let scratch = ScratchFolder(store: directory, kind: "asof", expectedBytes: Environment.fileSize(Environment.dataFile(live.path)) ?? 0,
                                    notice: notice)
        do {
            let views = try live.past(at: seq, only: only, progress: progress)
            return MailStore(directory: directory, log: log, notice: notice, views: views, snapshot: (scratch, seq),
                             privateSearchIndex: searchIndexLock.withLock { privateSearchIndex })
        } catch ViewError.noHistory {}
        do {
            let views = try ViewStore.scratch(in: try scratch.path() + "/views", log: log, through: seq, only: only,
                                              writesBehind: true, progress: progress)
            return MailStore(directory: directory, log: log, notice: notice, views: views, snapshot: (scratch, seq),
                             privateSearchIndex: searchIndexLock.withLock { privateSearchIndex })
        } catch {
            scratch.remove()
            throw error
        }
    }

    /// For a store from `asOf`: the sequence its views' fold began at (kept past views, a snapshot, or 0).
    package var asOfStartedFrom: UInt64? {
        guard snapshot != nil else { return nil }
        return try? views().startedFrom
    }

    /// The events the views could not fold (a projector bug), at most `limit`: the views skip them and
    /// `replay` tries them again.
    public func quarantinedEvents(limit: Int = 1_000) throws -> [QuarantinedEvent] {
        try views().quarantined(limit: limit)
    }

    /// The note for events a newer mailstore wrote that the views lack ("... upgrade mailstore"), or nil.
    public func newerEventsNote() throws -> String? {
        try views().newerEventsNote()
    }

    /// The sequence a store from `asOf` shows, or nil for the live store.
    public var snapshotSequence: UInt64? { snapshot?.sequence }

    /// The last sequence at `point`: a sequence number (at most the head), or the last event recorded at or
    /// before a time: a `TimePoint` (`2024-01-15T09:30:00Z`, `2024-01-15 09:30`, `2024-01-15`, `2h`, `yesterday`, ...),
    /// taken at the end of its span (a second's, a minute's, a day's last moment) as `log --until` takes it, `Z` or
    /// not; else ISO 8601 with an offset or fractional seconds (`2024-01-15T09:30:00.250+02:00`): up to the end of
    /// the last digit's span (`.250` the millisecond's last microsecond; digits past the sixth are cut).
    func sequence(asOf point: String) throws -> UInt64 {
        let head = try log.head().sequence
        if let n = UInt64(point) { return min(n, head) }
        let end: Timestamp
        if let p = TimePoint.parse(point, now: Date()) {
            end = Timestamp(microseconds: (p.relative ? p.start + 1 : p.end) * 1_000_000)
        } else {
            // Fractional seconds are read here, to the microsecond (Foundation's formatter reads milliseconds on
            // Linux, and dropped the rest): a fraction is a span as a whole second is, so `log`'s `recordedAt` (cut to
            // the millisecond) given back takes in the event recorded in that millisecond.
            var whole = point
            var fraction = (micros: Int64(0), span: Int64(1_000_000))
            if let dot = point.firstIndex(of: "."), point[..<dot].contains("T") || point[..<dot].contains(" ") {
                let digits = point[point.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, digits.count <= 9 else { throw MailStoreError.badPointInTime(point) }
                let kept = String(digits.prefix(6))
                fraction.span = Int64(pow(10.0, Double(6 - kept.count)))
                fraction.micros = (Int64(kept) ?? 0) * fraction.span
                if digits.count > 6 { fraction.span = 1 }
                whole = String(point[..<dot]) + String(point[digits.endIndex...])
            }
            // The second as `log` reads one (`T` or a space, `Z` or none: UTC), else ISO 8601 with an offset.
            let second: Int64
            if let p = TimePoint.parse(whole, now: Date()), !p.relative, p.end - p.start == 1 {
                second = p.start * 1_000_000
            } else if let date = ISO8601DateFormatter().date(from: whole) {
                second = Timestamp(date).microseconds
            } else {
                throw MailStoreError.badPointInTime(point)
            }
            end = Timestamp(microseconds: second + fraction.micros + fraction.span)
        }
        // Recorded times never go back along the log: the last event before `end` is the one before the first at or
        // after it.
        return min(try log.firstSequence(recordedAtOrAfter: end) - 1, head)
    }
}
