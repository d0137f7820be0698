/// As of a point: rowid spans, ascending, that hold every row held then, and about how many documents they hold
/// (`SearchIndex.pointSpans`); a set of the matches among the rows held is read over them.
struct PointSpans {
    var spans: [ClosedRange<Int64>]
    var documents: Int
}
