import CSQLite
import Foundation

/// What failed in the search index, and what to do about it.
package enum SearchIndexError: Error, CustomStringConvertible, Sendable {
    /// A SQLite call failed.
    case sqlite(call: String, code: Int32, message: String)
    /// A file or folder operation failed.
    case io(String, String)
    /// The index file was written by another schema version (the caller rebuilds it).
    case schemaMismatch(found: Int, expected: Int)
    /// The index file was written by a newer build (a schema version above this build's): it is left as it is,
    /// neither read nor rebuilt on open (an older and a newer build would otherwise rebuild it in turn, minutes
    /// each at a million messages); `mailstore replay --view search` rebuilds it for this build when asked.
    case newerSchema(file: String, found: Int, supported: Int)
    /// A query the parser accepted could not be run.
    case query(String)
    /// The index file was replaced since this connection opened it (another process's rebuild, `replay`, renamed a
    /// new one into place): nothing was read or written; the caller opens the index again (`SearchIndex.open` does).
    case replaced(file: String)
    /// A search ran past its time limit (`SearchIndex.withTimeLimit`): nothing of it is returned.
    case timedOut(seconds: Double)
    /// A build of the index (it was missing, or is made again) stopped at its deadline (`rebuild(deadline:)`) with the
    /// events through `folded` of `head` folded and, once its end has begun, `endStages` of its
    /// `SearchIndex.buildEndStages` done (nil: not begun): kept aside (`partialSuffix`) for the next build to go on
    /// from, nothing put in place yet. `MailStore.search` says it as `SearchIndexBehind`.
    case notBuilt(folded: UInt64, head: UInt64, endStages: Int?)
    /// A private index (built for one search of a store whose index cannot be written or used: `openReadOnly`, a search
    /// as of a point) stopped at its deadline with the events through `folded` of `head` folded: not kept (it goes
    /// with its folder), so nothing to search. `MailStore.search` says it as `SearchIndexBehind`.
    case privateNotBuilt(folded: UInt64, head: UInt64)
    /// Another process held the index's build lock (`BUILD`: a `replay`, a `search --build-index`, another search
    /// building it) until this one's deadline (`rebuild(deadline:)`): nothing built here, nothing to search yet.
    /// `MailStore.search` says it as `SearchIndexBehind`.
    case buildBusy(folder: String)
    /// A build of the index in `folder` finished, but other processes' transactions on the old index (searches reading
    /// it) were still under way at its deadline, so it was not put in place: kept aside whole (`partialSuffix`) for the
    /// next build to put in place (`rebuild(switchWait:)`). `MailStore.search` says it as `SearchIndexBehind`.
    case oldIndexInUse(folder: String)

    /// Whether this is SQLite's `SQLITE_BUSY`: another connection holds the file (or the switch lock) past the wait.
    package var isBusy: Bool {
        if case .sqlite(_, let code, _) = self { return code & 0xFF == SQLITE_BUSY }
        return false
    }

    /// Whether this is SQLite's `SQLITE_INTERRUPT` (a budget or deadline stopped the statement).
    var isInterrupt: Bool {
        if case .sqlite(_, let code, _) = self { return code == SQLITE_INTERRUPT }
        return false
    }

    package var description: String {
        switch self {
        case .sqlite(let call, let code, let message) where code & 0xFF == SQLITE_FULL:
            // A rebuild needs room too: the advice is the room.
            "search index: SQLite \(call) failed (\(code): \(message)); the disk is full: free space and run the command again"
        case .sqlite(let call, let code, let message) where code & 0xFF == SQLITE_BUSY:
            // In use, not damaged: a rebuild is not the answer.
            "search index: SQLite \(call) failed (\(code): \(message)): another mailstore process kept it busy (a `replay` putting a "
                + "rebuilt index in place waits for the searches under way); run the command again"
        case .sqlite(let call, let code, let message):
            "search index: SQLite \(call) failed (\(code): \(message)); `mailstore replay` rebuilds the index from the log"
        case .io(let path, let why): "search index: \(path): \(why)"
        case .schemaMismatch(let found, let expected):
            "search index: schema version \(found), this build writes \(expected); it is rebuilt from the log"
        case .newerSchema(let file, let found, let supported):
            "search index \(file): schema version \(found) was written by a newer mailstore (this build reads up to \(supported)); "
                + "it was left as it is: upgrade mailstore, or run `mailstore replay --view search` to rebuild it for this build "
                + "(a newer build then rebuilds it again)"
        case .replaced(let file):
            "search index \(file): another mailstore process rebuilt it (a `replay`) while this one used it; run the command again"
        case .query(let why): "search: \(why)"
        case .notBuilt(let folded, let head, let endStages):
            "search index: its build stopped at its time limit with \(folded) of the log's \(head) events folded"
                + (endStages.map { ", \($0) of the \(SearchIndex.buildEndStages) stages of its end done" } ?? "")
                + " (kept: the next build goes on from there); `mailstore search --build-index` finishes it with no time limit"
        case .privateNotBuilt(let folded, let head):
            "search index: the private index built for this search stopped at its time limit with \(folded) of \(head) events "
                + "folded (not kept: the store's index folder cannot be written); allow more time (--timeout)"
        case .buildBusy(let folder):
            "search index: another mailstore process is building the index in \(folder) (a `replay`, a `search --build-index` "
                + "or another search) and it was not done within this one's time limit; run the command again when it ends"
        case .oldIndexInUse(let folder):
            "search index: the index rebuilt in \(folder) was not put in place: other mailstore processes' searches kept the old "
                + "one in use until this one's time limit (the build is kept: the next search puts it in place); run the command "
                + "again when they end"
        case .timedOut(let seconds):
            "search: stopped after its limit of \(String(format: "%g", seconds)) s; "
                + "narrow the query (longer prefixes or fewer of them, fewer or rarer words, a filter such as folder: or date:) "
                + "or allow more time (--timeout)"
        }
    }
}
