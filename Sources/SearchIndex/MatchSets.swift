/// The copies matching each FTS5 expression a search tests membership in (text under NOT, or beside filters
/// under OR): each made once, as a temp table of rowids, for all the statements of that search, and dropped
/// when it ends.
///
/// Why: SQLite makes such a subquery's set again in every statement, and a thread page runs one statement for
/// the page and one per thread. `NOT m*` at a million messages made it 26 times (47 s).
/// Bound: a table holds at most one rowid per document (with `temp_store = MEMORY`, ~12 bytes each), as the
/// set SQLite made for one statement did.
final class MatchSets {
    /// Table name by FTS5 expression.
    var tables: [String: String] = [:]
    /// As of a point: the expressions whose matches among the rows held would cost more than every match's
    /// (`SearchIndex.pointMatchSet` gave nil; asked again by each thread of a page).
    var pointRefused: Set<String> = []
    /// As of a point: rowid spans holding every row held and about how many documents they hold
    /// (`SearchIndex.pointSpans`), once made (`.some(nil)`: too many rows held to list).
    var pointSpans: PointSpans??
    /// The rows the search reads by rowid where its filters admit few (`SearchIndex.restriction`), once decided
    /// (`.some(nil)`: none).
    var restriction: PointRowids??
}
