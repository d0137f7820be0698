import SearchIndex

/// A search that could not be answered within its time limit because the search index was not folded far enough:
/// being built (missing, or not this log's) and not finished, or, for a search as of a point, not yet through that
/// point; another process building it still, or holding it (a `replay` putting its rebuilt index in place); other
/// processes' searches keeping the old index in use while this search's build waited to be put in place; or a
/// private index built for this search alone not finished. What was
/// folded into the store's index is kept (nothing is lost): the next search, or `mailstore search --build-index`, goes
/// on from there. Of category `ErrorCategory.timedOut` (exit code 8).
public struct SearchIndexBehind: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why the index was not far enough.
    public enum Cause: Sendable, Equatable {
        /// The store's index is being built (a build kept aside, nothing searchable yet).
        case building
        /// The store's index is folded short of the point of a search as of one.
        case shortOfPoint
        /// Another process (a `replay`, a `search --build-index`, another search) held the index's build until the limit.
        case anotherBuild
        /// Another process held the index's file until the limit: a `replay` putting its rebuilt index in place (new
        /// searches wait while it waits for those under way to end), or another process writing it. Since the fourteenth
        /// round (the search had waited up to a minute past its limit).
        case inUse
        /// This search built the index anew (it was missing, or not this log's or of this build's schema) but other
        /// processes' searches kept the old one in use until the limit, so it was not put in place: kept aside whole,
        /// for the next search (or `search --build-index`) to put in place. Since the fifteenth round (the wait had been
        /// up to 3,660 s, past the limit).
        case oldIndexInUse
        /// The store's index cannot be written (a read-only filesystem) or used as of the point searched, and the private
        /// index built for this search did not finish: it is not kept, so the next search builds it again.
        case privateIndex
    }

    /// The search's time limit in seconds.
    public var seconds: Double
    /// The last event the index (or its build) has folded (0 for `Cause.anotherBuild`, `Cause.inUse` and
    /// `Cause.oldIndexInUse`: not read).
    public var folded: UInt64
    /// The event through which the search needs it: the log's head, or the point of a search as of one.
    public var needed: UInt64
    /// Why it was not far enough.
    public var cause: Cause
    /// For `Cause.building`, once the build's end (merging the index's segments, then making its query indexes) has
    /// begun: how many of its `SearchIndexBehind.buildEndStages` stages are done; nil before. Since the sixteenth round.
    public var endStages: Int?

    /// The stages of a build's end (`endStages`).
    public static var buildEndStages: Int { SearchIndex.buildEndStages }

    /// True when there was nothing to search yet (the index being built, here or by another process, or a private
    /// one, or held by another process); false for a live index folded short of a search's point.
    public var building: Bool { cause != .shortOfPoint }

    public init(seconds: Double, folded: UInt64, needed: UInt64, cause: Cause, endStages: Int? = nil) {
        self.seconds = seconds
        self.folded = folded
        self.needed = needed
        self.cause = cause
        self.endStages = endStages
    }

    /// `building` true: `Cause.building`; false: `Cause.shortOfPoint`.
    public init(seconds: Double, folded: UInt64, needed: UInt64, building: Bool) {
        self.init(seconds: seconds, folded: folded, needed: needed, cause: building ? .building : .shortOfPoint)
    }

    public var description: String {
        let limit = "this search's limit of \(SearchAnswer.seconds(seconds)) s"
        let what: String
        switch cause {
        case .building:
            if let endStages {
                what = "the search index is being built: \(folded) of the log's \(needed) events are folded (any since are folded "
                    + "once it is in place) and \(limit) ran out in its end, \(endStages) of the \(Self.buildEndStages) stages of its "
                    + "end done (merging the index's segments a step at a time, then making its query indexes one by one); "
                    + "the next search goes on with it"
            } else if folded >= needed {
                what = "the search index is being built: all \(needed) events of the log are folded, but \(limit) ran out before "
                    + "its end (merging the index's segments, making its query indexes) could begin; the next search begins it"
            } else {
                what = "the search index is being built and \(limit) ran out with \(folded) of the log's \(needed) events folded; "
                    + "the next search goes on folding, then ends it a step at a time"
            }
        case .shortOfPoint:
            what = "the search index is folded through event \(folded), short of the point searched (event \(needed)), and "
                + "\(limit) ran out bringing it there"
        case .anotherBuild:
            return "search: another mailstore process is building the search index (a `replay`, a `search --build-index` or "
                + "another search) and \(limit) ran out waiting for it. Search again when it ends, or with a longer --timeout"
        case .inUse:
            return "search: another mailstore process is putting a rebuilt search index in place (a `replay`, which waits for "
                + "the searches under way to end while new ones wait for it) or writing the index, and \(limit) ran out waiting "
                + "for it. Search again when it is done, or with a longer --timeout"
        case .oldIndexInUse:
            return "search: this search built the search index anew, but other mailstore processes' searches kept the old one "
                + "in use and \(limit) ran out waiting for them to end to put the new one in place (it is kept: the next search "
                + "puts it in place). Search again when they end, or with a longer --timeout"
        case .privateIndex:
            return "search: the store's search index cannot be used here (its folder cannot be written, or it is not folded "
                + "through the point searched), so this search builds a private index of its own, and \(limit) ran out with "
                + "\(folded) of the \(needed) events it needs folded. A private index is not kept: search again with a longer "
                + "--timeout (the whole build is made again), or search where the store can be written"
        }
        return "search: \(what) (what is done is kept: the next search or build goes on from there). Run `mailstore search "
            + "--build-index` to finish it with no time limit (progress shown on a terminal), or search again with a longer --timeout"
    }
}
