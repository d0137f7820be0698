/// As of a point: the rowids of the `docs` rows that held at it already and of the kept versions that held at it,
/// each ascending, or nil where they are more than a search reads by rowid (`SearchIndex.pointRowids`).
struct PointRowids {
    var now: [Int64]?
    var past: [Int64]?
}
