import EventModel
import Foundation
import LMDB
import SearchIndex
import SearchQuery
import Views

/// Full-text search: the search view (`STORE/views/search/`, SQLite FTS5) caught up with the log before
/// every query; a store as of a past point searches the same index as of that point (`SearchIndex.asOf`).
extension MailStore {
    /// The search view's folder.
    var searchFolder: String { directory.viewsPath + "/search" }

    /// The most rows one search returns.
    public static let maxSearchRows = 10_000

    /// The views `search` reads besides its index (thread rows and membership; the accounts configured, whose removed
    /// ones a search across accounts leaves out): all that a store at a past point (`asOf(_:views:)`) folds for
    /// `search --as-of`.
    public static let viewsSearchReads = [ViewName.threads.rawValue, ViewName.accounts.rawValue]

    /// Seconds a search may take by default (`search(timeLimit:)`, `mailstore search --timeout`).
    public static let defaultSearchSeconds = 30.0

    /// Searches mail with the notmuch-like query language (docs/cli.md). Throws `SearchSyntaxError` (with a
    /// caret under the problem) for a malformed query, and an error of category `ErrorCategory.timedOut` when the
    /// search runs past `timeLimit` seconds (nil: no limit): the query itself, or an index that could not be folded far
    /// enough within it (`SearchIndexBehind`). The rows of `searchAnswer`, which also tells whether the search index was
    /// behind the log.
    public func search(_ text: String, account: String? = nil, output: SearchOutput = .threads, limit: Int = 25,
                       offset: Int = 0, oldestFirst: Bool = false,
                       timeLimit: Double? = MailStore.defaultSearchSeconds) throws -> [SearchResult] {
        try searchAnswer(text, account: account, output: output, limit: limit, offset: offset, oldestFirst: oldestFirst,
                         timeLimit: timeLimit).rows
    }

    /// `search`, with how far behind the log the search index was (`SearchAnswer`).
    ///
    /// `timeLimit` counts the whole search: the search index's catch-up with the log before the query, then the query.
    /// The catch-up stops at the limit less a share kept for the query (`queryShare`), everything it folded committed
    /// (the next search goes on from there); the query then runs on what is indexed, and the answer says how many
    /// events it is behind (`SearchAnswer.indexBehind`, `warning`). Where there is nothing to search yet (the index
    /// being built, kept aside unfinished) or the index is short of a past point searched, it throws
    /// `SearchIndexBehind`. Until 2026-12-07 the catch-up was not counted: the first search after a big import folded
    /// for minutes (16 at a million messages on a loaded machine). `progress`: events folded and to fold, as the
    /// catch-up goes (`mailstore search` draws it on a terminal).
    public func searchAnswer(_ text: String, account: String? = nil, output: SearchOutput = .threads, limit: Int = 25,
                             offset: Int = 0, oldestFirst: Bool = false, timeLimit: Double? = MailStore.defaultSearchSeconds,
                             progress: ((UInt64, UInt64) -> Void)? = nil) throws -> SearchAnswer {
        let query: SearchQuery
        do {
            query = try SearchQuery.parse(text)
        } catch {
            throw SearchSyntaxError(offset: error.offset, message: error.message, pointer: error.pointing(at: text))
        }
        let bounds = timeLimit.map { MailStore.searchBounds(seconds: $0, from: SearchIndex.now()) }
        // An index renamed over by another process's rebuild (a `replay`) while this search used it is refused its
        // next transaction: the search is made again on the new one (once).
        do {
            do {
                return try search(query, account: account, output: output, limit: limit, offset: offset, oldestFirst: oldestFirst,
                                  timeLimit: timeLimit, bounds: bounds, progress: progress)
            } catch SearchIndexError.replaced {
                return try search(query, account: account, output: output, limit: limit, offset: offset, oldestFirst: oldestFirst,
                                  timeLimit: timeLimit, bounds: bounds, progress: progress)
            }
        } catch let e as SearchIndexError {
            // A lock waited for until the limit (the index's waits end there): its query's, past its catch-up.
            guard let behind = MailStore.searchIndexBehind(e, needed: try log.head().sequence, timeLimit: timeLimit) else { throw e }
            throw behind
        }
    }

    /// The share of a search's time limit kept for its query when the index's catch-up before it is long: half the
    /// limit, at most `maxQuerySeconds`.
    static let queryShare = 0.5
    /// The most seconds of a search's time limit kept for its query (a query at a million messages takes up to ~4 s).
    static let maxQuerySeconds = 5.0

    /// When a search started at `start` (`SearchIndex.now()`'s clock) with a limit of `seconds` must end (`end`), and
    /// when its catch-up must stop (`catchUp`: `end` less the query's share).
    static func searchBounds(seconds: Double, from start: UInt64) -> (end: UInt64, catchUp: UInt64) {
        let limit = max(0, min(seconds, 86_400))
        let kept = min(limit * queryShare, maxQuerySeconds)
        return (start + UInt64(limit * 1e9), start + UInt64((limit - kept) * 1e9))
    }

    /// Makes the search index build itself fully (or go on with a build kept aside) and catch up with the log's head,
    /// with no time limit (`mailstore search --build-index`); returns the last event folded and the copies indexed.
    /// `progress`: events folded and to fold. Where the index's folder cannot be written, the private index built is
    /// kept for this store's searches (`privateSearchIndex`; until the fourteenth round the search built it again).
    /// `switchWait`: the longest a finished build waits for other processes' searches of the old index to end before it
    /// is put in place (`mailstore search --timeout`; nil: 3,660 s); past it, the build is kept aside for the next one to
    /// put in place and `SearchIndexBehind` (`oldIndexInUse`) is thrown (until the fifteenth round the wait ignored
    /// `--timeout`).
    public func buildSearchIndex(switchWait: Double? = nil,
                                 progress: ((UInt64, UInt64) -> Void)? = nil) throws -> (checkpoint: UInt64, documents: Int) {
        try ViewStore.checkFolder(directory.viewsPath)
        let index: SearchIndex
        do {
            index = try SearchIndex.open(folder: searchFolder, log: log, deadline: nil, switchWait: switchWait, progress: progress,
                                         notice: notice).index
        } catch let e as SearchIndexError {
            guard let behind = MailStore.searchIndexBehind(e, needed: try log.head().sequence, timeLimit: switchWait) else { throw e }
            throw behind
        }
        if index.isPrivate { searchIndexLock.withLock { privateSearchIndex = index } }
        return (try index.checkpoint(), try index.documentCount())
    }

    /// `search`'s query parsed, made once.
    private func search(_ query: SearchQuery, account: String?, output: SearchOutput, limit: Int, offset: Int, oldestFirst: Bool,
                        timeLimit: Double?, bounds: (end: UInt64, catchUp: UInt64)?,
                        progress: ((UInt64, UInt64) -> Void)?) throws -> SearchAnswer {
        let opened = try searchIndex(deadline: bounds?.catchUp, timeLimit: timeLimit, progress: progress)
        let index = opened.index
        let views = try latestViews()
        let limit = max(1, min(limit, MailStore.maxSearchRows))
        let query = MailStore.leavingOut(try removedAccounts(), from: query, account: account)
        let threadEmails: (String) throws -> [String] = { id in try views.threadEmails(id: id).map(\.id) }
        func iso(_ seconds: Int64) -> String { Timestamp(microseconds: seconds * 1_000_000).iso8601 }
        let found: [SearchResult] = try index.withTimeLimit(timeLimit, until: bounds?.end) {
            switch output {
            case .messages:
                var rows: [SearchResult] = []
                var skipped = 0
                try index.search(query, account: account, oldestFirst: oldestFirst, threadEmails: threadEmails) { h in
                    if skipped < offset {
                        skipped += 1
                        return true
                    }
                    let thread = try views.emailRecord(id: h.emailID)?.threadID ?? "email:" + h.emailID
                    rows.append(SearchResult(threadId: thread, messageIds: h.messageID.map { [$0] } ?? [], emailIds: [h.emailID],
                                             subject: h.subject, participants: h.participants, date: iso(h.date), account: h.account,
                                             folders: [h.folder], messageCount: 1, unread: !h.isSeen, starred: h.isFlagged))
                    return rows.count < limit
                }
                return rows
            case .threads:
                // Each match's thread is looked up in the views: a deep offset reads thousands of their pages at random,
                // released once past the mapped budget (as a fold's are) so they do not pile up in the resident size.
                var looked = 0
                let hits = try index.searchThreads(query, account: account, oldestFirst: oldestFirst, offset: offset, limit: limit,
                                                   threadOf: { id in
                                                       looked += 1
                                                       if looked % 4_096 == 0 { views.environment.releaseResidentPages(over: Environment.residentFileBudget) }
                                                       return try views.emailRecord(id: id)?.threadID
                                                   }, threadEmails: threadEmails)
                return try hits.map { t in
                    let mids = try t.emailIDs.compactMap { try views.emailRecord(id: $0)?.messageKey }.filter { !$0.hasPrefix("<") }
                    var seen = Set<String>()
                    let messageIds = mids.filter { seen.insert($0).inserted }
                    if let r = try views.thread(id: t.threadID) {
                        return SearchResult(threadId: t.threadID, messageIds: messageIds, emailIds: t.emailIDs, subject: r.subject,
                                            participants: r.participants, date: r.latestDate.iso8601, account: r.account, folders: r.folders,
                                            messageCount: r.messageCount, unread: r.unreadCount > 0, starred: r.isStarred)
                    }
                    let h = t.first
                    return SearchResult(threadId: t.threadID, messageIds: h.messageID.map { [$0] } ?? [], emailIds: t.emailIDs,
                                        subject: h.subject, participants: h.participants, date: iso(h.date), account: h.account,
                                        folders: [h.folder], messageCount: 1, unread: !h.isSeen, starred: h.isFlagged)
                }
            }
        }
        let behind = opened.behind
        return SearchAnswer(rows: behind == 0 ? found : found.map { var r = $0; r.indexBehind = behind; return r }, indexBehind: behind,
                            catchUpStopped: opened.stopped, seconds: timeLimit)
    }

    /// `query` without the mail of the accounts of `removed` (`removedAccounts()`) when it spans accounts (no
    /// `account` given): a condition `NOT account:NAME` for each, but one the query names in an `account:` term (read by
    /// name, as `--account` reads it).
    static func leavingOut(_ removed: Set<String>, from query: SearchQuery, account: String?) -> SearchQuery {
        guard account == nil, !removed.isEmpty else { return query }
        let left = removed.filter { name in
            !query.expr.contains { if case .filter(.account(let a)) = $0 { a == name } else { false } }
        }
        guard !left.isEmpty else { return query }
        var out = query
        let parts: [SearchExpr] = if case .and(let p) = query.expr { p } else { [query.expr] }
        out.expr = .and(parts + left.sorted().map { .not(.filter(.account($0))) })
        return out
    }

    /// The search index: the live one caught up with the log; for a store as of a past point, the same one read
    /// as of that point (`SearchIndex.asOf`: each copy's version then, kept in the index), or, where the live
    /// index cannot be opened and caught up (a store this process may not write), one folded up to the point
    /// beside that store's scratch views.
    ///
    /// `deadline` (`SearchIndex.now()`'s clock; nil: none) bounds the catch-up and a build (`SearchIndex.open`):
    /// `behind` is how many events at the log's end the index returned has not folded (its catch-up stopped at the
    /// deadline, `stopped`, or it is searched as it stands, read-only); nothing to search yet (a build stopped), or a
    /// live index short of the past point searched, is `SearchIndexBehind` (`timeLimit`, what it says of the limit).
    func searchIndex(deadline: UInt64? = nil, timeLimit: Double? = nil,
                     progress: ((UInt64, UInt64) -> Void)? = nil) throws -> (index: SearchIndex, behind: UInt64, stopped: Bool) {
        // The private index `buildSearchIndex` built (caught up: nothing new where the folder is read-only, as a rule).
        if let kept = searchIndexLock.withLock({ privateSearchIndex }) {
            let complete = try kept.catchUp(log: log, through: snapshot?.sequence, deadline: deadline, progress: progress, notice: notice)
            let checkpoint = try kept.checkpoint()
            if let snapshot, checkpoint >= snapshot.sequence {
                kept.asOf = snapshot.sequence
                return (kept, 0, false)
            }
            if snapshot == nil {
                let head = try log.head().sequence
                return (kept, head > checkpoint ? head - checkpoint : 0, !complete)
            }
        }
        if let snapshot {
            var live: SearchIndex?
            var complete = true
            do {
                // Folded through the point only: what a search as of it needs.
                let opened = try SearchIndex.open(folder: searchFolder, log: log, through: snapshot.sequence, deadline: deadline,
                                                  progress: progress, notice: notice)
                live = opened.index
                complete = opened.complete
            } catch let e as SearchIndexError {
                // A newer build's index is not folded anew beside it either: the same answer as a live search.
                if case .newerSchema = e { throw e }
                // A build stopped at the limit is gone on with by the next search, not folded again in a scratch folder;
                // another process's build is not either, nor is a private index stopped at the limit.
                if let behind = MailStore.searchIndexBehind(e, needed: snapshot.sequence, timeLimit: timeLimit) { throw behind }
                live = nil
            } catch {
                live = nil
            }
            // A live index renamed over meanwhile is searched again (the caller's one retry), not folded in a scratch folder.
            var checkpoint: UInt64?
            do {
                checkpoint = try live?.checkpoint()
            } catch let e as SearchIndexError {
                if case .replaced = e { throw e }
            }
            if let live, let checkpoint, checkpoint >= snapshot.sequence {
                live.asOf = snapshot.sequence
                return (live, 0, false)
            }
            // Its catch-up stopped at the limit short of the point: an answer as of the point needs every event up to it.
            if live != nil, !complete, let checkpoint {
                throw SearchIndexBehind(seconds: timeLimit ?? 0, folded: checkpoint, needed: snapshot.sequence, building: false)
            }
            // Inside the snapshot's scratch folder, so it goes with it; within the limit (what it folded goes with it too).
            do {
                return (try SearchIndex.rebuild(folder: try snapshot.scratch.path() + "/search", log: log, through: snapshot.sequence,
                                                deadline: deadline, progress: progress), 0, false)
            } catch SearchIndexError.notBuilt(let folded, let needed, _) {
                throw SearchIndexBehind(seconds: timeLimit ?? 0, folded: folded, needed: needed, cause: .privateIndex)
            }
        }
        try ViewStore.checkFolder(directory.viewsPath)
        let opened: (index: SearchIndex, complete: Bool)
        do {
            opened = try SearchIndex.open(folder: searchFolder, log: log, deadline: deadline, progress: progress, notice: notice)
        } catch let e as SearchIndexError {
            guard let behind = MailStore.searchIndexBehind(e, needed: try log.head().sequence, timeLimit: timeLimit) else { throw e }
            throw behind
        }
        guard !opened.complete || opened.index.readOnly else { return (opened.index, 0, false) }
        let checkpoint = try opened.index.checkpoint(), head = try log.head().sequence
        return (opened.index, head > checkpoint ? head - checkpoint : 0, !opened.complete)
    }

    /// What a search says of `error` from opening its index within its time limit (`timeLimit`, seconds): a build
    /// stopped there (the store's, kept aside, or a private one, not kept), or another process's build waited for until
    /// then, or this search's build not put in place by then (other processes' searches kept the old index in use), or,
    /// with a limit, a lock of the index waited for until then (`SQLITE_BUSY`: the index's waits end at the
    /// limit; a `replay` putting its index in place), as `SearchIndexBehind` (`needed`: the event the search needs the
    /// index through, for an error that does not say it); nil for any other error.
    static func searchIndexBehind(_ error: SearchIndexError, needed: UInt64, timeLimit: Double?) -> SearchIndexBehind? {
        let seconds = timeLimit ?? 0
        if timeLimit != nil, error.isBusy { return SearchIndexBehind(seconds: seconds, folded: 0, needed: needed, cause: .inUse) }
        switch error {
        case .notBuilt(let folded, let head, let endStages):
            return SearchIndexBehind(seconds: seconds, folded: folded, needed: head, cause: .building, endStages: endStages)
        case .privateNotBuilt(let folded, let head): return SearchIndexBehind(seconds: seconds, folded: folded, needed: head, cause: .privateIndex)
        case .buildBusy: return SearchIndexBehind(seconds: seconds, folded: 0, needed: needed, cause: .anotherBuild)
        case .oldIndexInUse: return SearchIndexBehind(seconds: seconds, folded: 0, needed: needed, cause: .oldIndexInUse)
        default: return nil
        }
    }

    /// Rebuilds the search view from the log (what `replay` does for it).
    func replaySearch(progress: ((UInt64, UInt64) -> Void)?) throws -> UInt64 {
        var events: UInt64 = 0
        try ViewStore.checkFolder(directory.viewsPath)
        _ = try SearchIndex.rebuild(folder: searchFolder, log: log, progress: { done, total in
            events = done
            progress?(done, total)
        }, notice: notice)
        return events
    }

    /// The search view compared with a scratch rebuild (counts, every document's filter columns, a sample of
    /// full texts), as view differences.
    /// `scratchFolder`: where the rebuild is made (a folder that does not exist yet), removed after
    /// (`SearchIndex.compareWithRebuild` removes it).
    func compareSearchWithRebuild(scratchFolder scratch: String) throws -> (sequence: UInt64, differences: [ViewDifference]) {
        let index = try SearchIndex.open(folder: searchFolder, log: log, notice: notice)
        let result = try index.compareWithRebuild(log: log, scratchFolder: scratch)
        return (result.sequence, result.differences.map { ViewDifference(view: "search", table: "index", detail: $0) })
    }
}
