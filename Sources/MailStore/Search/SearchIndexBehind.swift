/// A search that could not be answered within its time limit because the search index was not folded far enough:
/// being built (missing, or not this log's) and not finished, or, for a search as of a point, not yet through that
/// point. What was folded is kept (nothing is lost): the next search, or `mailstore search --build-index`, goes on from
/// there. Of category `ErrorCategory.timedOut` (exit code 8).
public struct SearchIndexBehind: Error, Equatable, Sendable, CustomStringConvertible {
    /// The search's time limit in seconds.
    public var seconds: Double
    /// The last event the index (or its build) has folded.
    public var folded: UInt64
    /// The event through which the search needs it: the log's head, or the point of a search as of one.
    public var needed: UInt64
    /// True when the index is being built (a build kept aside, nothing searchable yet); false for a live index
    /// folded short of a search's point.
    public var building: Bool

    public init(seconds: Double, folded: UInt64, needed: UInt64, building: Bool) {
        self.seconds = seconds
        self.folded = folded
        self.needed = needed
        self.building = building
    }

    public var description: String {
        let limit = "this search's limit of \(SearchAnswer.seconds(seconds)) s"
        let what: String
        if building {
            what = folded >= needed
                ? "the search index is being built: every event of the log is folded, but its end (merging and sorting it, "
                    + "about 50 s a million messages) was not expected to fit in what was left of \(limit)"
                : "the search index is being built and \(limit) ran out with \(folded) of the log's \(needed) events folded"
        } else {
            what = "the search index is folded through event \(folded), short of the point searched (event \(needed)), and "
                + "\(limit) ran out bringing it there"
        }
        return "search: \(what) (what is done is kept: the next search or build goes on from there). Run `mailstore search "
            + "--build-index` to finish it with no time limit (progress shown on a terminal), or search again with a longer --timeout"
    }
}
