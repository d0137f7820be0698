import SearchQuery

extension SearchIndex {
    /// Word seeks a search may spend testing the text of the copies its filters admit (`restriction`), for text
    /// without a prefix: each copy read by rowid seeks each of its words' postings (~10 us at 1M). 16 Ki: ~0.2 s.
    static let filterSeeks = 16_384

    /// The copies the top-level filters of `expr` admit that are few enough to read by rowid: those in a folder
    /// (`folder:`), an account (`account:`), of a Message-ID (`id:`) or of a thread (`thread:`), each kind at most
    /// `QueryCompiler.maxPastRowids`; as of a point, the current rows (`now`) and the versions kept (`past`) that have
    /// it, whatever their `since` and `until` (the statement tests those). Several such filters: the copies all admit.
    /// (`maxPastRowids` each: tests set fewer.)
    /// Nil: no such filter, or more copies than that (for a point, of either kind). Live, `past` is empty.
    /// `threadEmails` is called before the index is locked.
    func filterRowids(_ expr: SearchExpr, threadEmails: (String) throws -> [String]) throws -> PointRowids? {
        var found: PointRowids?
        for c in QueryCompiler.conjuncts(of: expr) {
            guard case .filter(let f) = c else { continue }
            let condition: String
            var binds: [SQLiteValue]
            switch f {
            case .folder(let name):
                condition = "folder = ? COLLATE NOCASE"
                binds = [.text(name)]
            case .messageID(let id):
                condition = "message_id = ?"
                binds = [.text(id)]
            case .thread(let id):
                let ids = try threadEmails(id).prefix(QueryCompiler.maxThreadEmails)
                condition = "email_id IN (" + Array(repeating: "?", count: ids.count).joined(separator: ",") + ")"
                binds = ids.map { .text($0) }
                if ids.isEmpty { return PointRowids(now: [], past: []) }
            case .account(let name):
                condition = "account = ?"
                binds = [.text(name)]
            case .state, .category, .date, .size:
                continue
            }
            let rows = try locked { () throws(SearchIndexError) -> PointRowids? in
                let most = Int64(max(0, min(maxPastRowids, QueryCompiler.maxPastRowids))) + 1
                func read(_ table: String) throws(SearchIndexError) -> [Int64]? {
                    let s = try db.prepare("SELECT rowid FROM \(table) WHERE \(condition) LIMIT ?")
                    try s.bind(binds + [.int(most)])
                    var out: [Int64] = []
                    while try s.step() { out.append(s.int(0)) }
                    return out.count >= most ? nil : Array(Set(out)).sorted()
                }
                guard let now = try read("docs") else { return nil }
                guard asOf != nil else { return PointRowids(now: now, past: []) }
                guard let past = try read("docs_past") else { return nil }
                return PointRowids(now: now, past: past)
            }
            guard let rows else { continue }
            found = found.map { Self.restricted($0, to: rows) } ?? rows
        }
        return found
    }

    /// `point` narrowed to `rows` kind by kind (nil: every row of that kind).
    static func restricted(_ point: PointRowids, to rows: PointRowids) -> PointRowids {
        func both(_ a: [Int64]?, _ b: [Int64]?) -> [Int64]? {
            guard let a else { return b }
            guard let b else { return a }
            let s = Set(b)
            return a.filter { s.contains($0) }
        }
        return PointRowids(now: both(point.now, rows.now), past: both(point.past, rows.past))
    }

    /// The rows a search reads by rowid, testing each for its text, where its filters admit few (`filterRowids`):
    /// `point` (the rows held at the point searched as of) narrowed to those; nil when they are not few, or reading
    /// them would cost more than the search did without (text without a prefix: more than `filterSeeks` word seeks;
    /// with prefixes: a set of the matches among them costing more than `pointSetSeeks`, made over their rowid
    /// spans, which are then kept in `sets` for it, `pointMatchSet`). None admitted: an empty restriction, whatever
    /// the text.
    /// Why: a statement FTS5 drives steps every match of its text to find those its filters admit: `id:X m*` at 1M
    /// stepped every `m*` match (2.4 s) for one message, `m* folder:Nope` every one (2.5-3.1 s), 1.1-2.1 s as of a
    /// point; read by rowid, a folder of a few hundred copies costs a seek of each word over each of their spans.
    func restriction(_ expr: SearchExpr, point: PointRowids, expansions: PrefixExpansions,
                     threadEmails: (String) throws -> [String], sets: MatchSets?) throws -> PointRowids? {
        guard locked({ restrictsByFilters }), let admitted = try filterRowids(expr, threadEmails: threadEmails) else { return nil }
        let narrowed = Self.restricted(point, to: admitted)
        let rows = Array(Set((narrowed.now ?? []) + (narrowed.past ?? []))).sorted()
        if rows.isEmpty { return counted(narrowed) }
        var prefixes = 0, texts = 0
        func walk(_ e: SearchExpr) {
            switch e {
            case .text(let t):
                texts += 1
                if t.isPrefix, expansions.expressions[t] == nil { prefixes += 1 }
            case .and(let parts), .or(let parts): parts.forEach(walk)
            case .not(let inner): walk(inner)
            case .all, .filter: break
            }
        }
        walk(expr)
        guard expansions.words > 0 || prefixes > 0 else {
            return rows.count * max(1, texts) <= Self.filterSeeks ? counted(narrowed) : nil
        }
        // A prefix not expanded to words would be tested in a set of every match (FTS5's merge of its postings).
        guard prefixes == 0, let sets else { return nil }
        guard let spans = try neighbourSpans(rows, words: expansions.words) else { return nil }
        locked { sets.pointSpans = .some(spans) }
        return counted(narrowed)
    }

    /// `rows`, counted in `filterRestrictions`.
    private func counted(_ rows: PointRowids) -> PointRowids {
        locked { filterRestrictions += 1 }
        return rows
    }
}
