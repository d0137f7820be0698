extension ActionsReader {
    /// The ids of the actions indexed as touching a thread (or, with `email: true`, an email), in key order (by
    /// id, not by sequence), without reading the actions' records: `actionIDs(touching:email:)` reads each one whole,
    /// every target of it, to order them, which `history --thread` of a thread of N emails did once per email, N
    /// times over for an action on all of them. An id whose record is missing is listed all the same.
    package func indexedActionIDs(touching id: String, email: Bool = false) throws -> [String] {
        let table = email ? ActionsProjector.byEmailTable : ActionsProjector.byThreadTable
        var ids: [String] = []
        try snapshot.scan(table, prefix: Key(id).bytes) { key, _ in
            var r = KeyReader(key)
            _ = r.string()
            ids.append(r.string())
            return true
        }
        return ids
    }
}
