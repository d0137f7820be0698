import EventModel
import SearchQuery

extension SearchIndex {
    /// Calls `body` with each copy matching `query` (only `account`'s when given), newest first (or oldest
    /// first), until it returns false. `threadEmails` expands `thread:` terms (the threads view knows them).
    /// The index is locked while `body` runs: `body` must not call back into it.
    package func search(_ query: SearchQuery, account: String? = nil, oldestFirst: Bool = false,
                        threadEmails: @escaping (String) throws -> [String] = { _ in [] },
                        _ body: (SearchHit) throws -> Bool) throws {
        let query = query.indexedForm
        try withMatchSets { sets in
            try search(query, account: account, oldestFirst: oldestFirst, threadEmails: threadEmails,
                       expansions: try locked { try prefixExpansions(query.expr) }, sets: sets, body)
        }
    }

    /// Rows times words a statement with expanded prefixes may step before it is run again from where it
    /// stopped with FTS5's prefixes instead: FTS5 compares every word of an OR for each row it steps (~4 ns a
    /// word: 6 us a row with 1,541 words at 1M, against ~1 us and one merge of the postings for its prefix),
    /// so this wastes at most ~0.25 s; a first page steps a few dozen rows. (`SearchIndex.expandedRowWords`.)
    static let defaultExpandedRowWords = 64_000_000
    /// What a word of a phrase prefix's expansion costs a row stepped, in words of a one-token prefix
    /// (`PrefixExpansions.stepWords`): ~100 measured at 1M (`category:updates re-m*`: 27.3 s with a phrase's word
    /// counted as one, 1.55 s with 100; the build before, FTS5's prefix, 2.65 s).
    static let phraseWordSteps = 100
    /// Seconds a statement with expanded prefixes may run before it is run again from where it stopped with FTS5's
    /// prefixes (`SearchIndex.expandedSeconds`): the rows budget cannot see FTS5's work inside one call, which is all
    /// of it where the expanded words match nothing. `a-a*` at 1M (a phrase of the common `a` and 1,567 words, no
    /// match): 4-7 s stepping the expanded phrases, ~1.5 s with FTS5's phrase prefix; the common expanded queries
    /// take <= 0.7 s (`re-m*` 0.4-0.63 s, `the-t*` 0.3-0.6 s).
    static let defaultExpandedSeconds = 1.0

    func search(_ query: SearchQuery, account: String?, oldestFirst: Bool, threadEmails: @escaping (String) throws -> [String],
                expansions: PrefixExpansions, sets: MatchSets?, _ body: (SearchHit) throws -> Bool) throws {
        // The account searched in is a filter as `account:` is.
        let filtered = account.map { SearchExpr.and(QueryCompiler.conjuncts(of: query.expr) + [.filter(.account($0))]) } ?? query.expr
        let (compiler, point) = try queryCompiler(threadEmails: threadEmails, expansions: expansions, sets: sets, restrictedBy: filtered)
        // As of a point with more rows held than are sought by rowid: the spans that hold them, in the order of
        // the results.
        let spans: [ClosedRange<Int64>?]
        if point.now == nil || point.past == nil, let held = try heldSpans(words: expansions.words) {
            spans = oldestFirst ? held : held.reversed()
        } else {
            spans = [nil]
        }
        for span in spans where try !searchWindows(query, within: span, account: account, oldestFirst: oldestFirst,
                                                   compiler: compiler, expansions: expansions, sets: sets, body) { return }
    }

    /// Documents in the first rowid window a search that tests text in sets of every match runs over; each next
    /// window holds `setWindowGrowth` times as many (`searchWindows`). (`SearchIndex.firstSetWindow`.)
    static let defaultFirstSetWindow = 4_096
    /// How many times the documents of the window before a set window holds.
    static let setWindowGrowth = 4

    /// The search of `query` over `span` (nil: all), false when `body` stopped it. A statement that tests text in sets
    /// of every match (text under NOT, beside filters under OR) runs over rowid windows from its first results on
    /// (the newest, or the oldest), the first of `firstSetWindow` documents (4,096), each next `setWindowGrowth` times
    /// larger, each with sets of the matches in it only: a first page is found in the first window or two.
    /// Why: the set of every match of a one-letter prefix costs ~2 s at 1M (`NOT m*` 2.2-2.9 s, as of a point too),
    /// a window's a seek of each of its words and the matches in the window.
    func searchWindows(_ query: SearchQuery, within span: ClosedRange<Int64>?, account: String?, oldestFirst: Bool,
                       compiler: QueryCompiler, expansions: PrefixExpansions, sets: MatchSets?,
                       _ body: (SearchHit) throws -> Bool) throws -> Bool {
        var dry = compiler
        if dry.matchSet != nil { dry.matchSet = { _, _, _ in "dry" } }
        guard compiler.matchSet != nil, try dry.compile(query.expr, account: account, oldestFirst: oldestFirst, within: span).readsSets else {
            return try search(query, within: span, account: account, oldestFirst: oldestFirst, compiler: compiler, expansions: expansions, body)
        }
        let whole = span ?? Int64.min...Int64.max
        var edge: Int64? = oldestFirst ? whole.lowerBound : whole.upperBound
        var size = max(1, firstSetWindow)
        while let from = edge {
            // The rowid `size` documents on from the edge, in the results' order; past the span's end, its end.
            let far: Int64? = try locked { () throws(SearchIndexError) -> Int64? in
                let s = try statement(oldestFirst
                    ? "SELECT rowid FROM docs WHERE rowid >= ? AND rowid <= ? ORDER BY rowid ASC LIMIT 1 OFFSET ?"
                    : "SELECT rowid FROM docs WHERE rowid >= ? AND rowid <= ? ORDER BY rowid DESC LIMIT 1 OFFSET ?")
                try s.bind(oldestFirst ? [.int(from), .int(whole.upperBound), .int(Int64(size))]
                                       : [.int(whole.lowerBound), .int(from), .int(Int64(size))])
                defer { s.reset() }
                return try s.step() ? s.int(0) : nil
            }
            let window: ClosedRange<Int64>
            if oldestFirst {
                window = from...((far.map { $0 - 1 }) ?? whole.upperBound)
                edge = far
            } else {
                window = ((far.map { $0 + 1 }) ?? whole.lowerBound)...from
                edge = far
            }
            let more = try search(query, within: window, account: account, oldestFirst: oldestFirst, compiler: compiler,
                                  expansions: expansions, body)
            // A window's sets serve its statements only: dropped, so a search over every window holds one window's.
            if let sets {
                let suffix = Self.setKeySuffix(window)
                locked {
                    for (key, table) in sets.tables where key.hasSuffix(suffix) {
                        try? db.exec("DROP TABLE IF EXISTS temp.\(table)")
                        sets.tables[key] = nil
                    }
                }
            }
            if !more { return false }
            size = size > Int.max / Self.setWindowGrowth ? Int.max : size * Self.setWindowGrowth
        }
        return true
    }

    /// The search of `query` over the rowids of `span` (nil: all): false when `body` stopped it.
    private func search(_ query: SearchQuery, within span: ClosedRange<Int64>?, account: String?, oldestFirst: Bool,
                        compiler: QueryCompiler, expansions: PrefixExpansions, _ body: (SearchHit) throws -> Bool) throws -> Bool {
        var compiler = compiler
        var compiled = try compiler.compile(query.expr, account: account, oldestFirst: oldestFirst, within: span)
        var last: Int64?
        var stopped = false
        // Expanded prefixes: bounded; past the bound the rest comes from the statement with FTS5's prefixes.
        // Where a filter or a NOT may reject the rows the text matches, the statement may step many for each it
        // returns: a phrase's words then count what they cost a row stepped (`stepWords`). Without, each row stepped
        // is a hit, and a page wants a few hundred at most.
        let stepped = QueryCompiler.mayRejectMatches(query.expr) ? expansions.stepWords : expansions.words
        let budget = expansions.expressions.isEmpty ? nil : Self.rowInstructions * expandedRowWords / max(1, stepped)
        let ended: Bool? = try locked {
            let s = compiled.readsSets ? try db.prepare(compiled.sql) : try statement(compiled.sql)
            try s.bind(compiled.binds)
            defer { s.reset() }
            func run() throws -> Bool {
                while try s.step() {
                    last = s.int(0)
                    if try !body(hit(s)) {
                        stopped = true
                        return true
                    }
                }
                return true
            }
            guard let budget else { return try run() }
            return try db.bounded(instructions: budget, seconds: expandedSeconds, run)
        }
        if stopped { return false }
        guard ended == nil else { return true }
        locked { expandedFallbacks += 1 }
        compiler.expansions = [:]
        // FTS5's prefix would merge a heavy prefix's postings in memory (`t* folder:Nope` at 1M: 209 MB): the text
        // is tested in a set made a few words at a time instead, probed for each row of `docs` in order.
        if !expansions.heavy.isEmpty, compiler.matchSet != nil { compiler.textAsSets = true }
        let whole = span ?? Int64.min...(Int64.max - 1)
        let rest: ClosedRange<Int64>? = switch (last, oldestFirst) {
        case (nil, _): span
        case (let l?, true): l >= whole.upperBound ? nil : (l + 1)...whole.upperBound
        case (let l?, false): l <= whole.lowerBound ? nil : whole.lowerBound...(l - 1)
        }
        if last != nil && rest == nil { return true }
        compiled = try compiler.compile(query.expr, account: account, oldestFirst: oldestFirst, within: rest)
        return try locked {
            let s = try db.prepare(compiled.sql)
            try s.bind(compiled.binds)
            while try s.step() {
                if try !body(hit(s)) { return false }
            }
            return true
        }
    }

    /// The most rows held at a point (current rows and versions, each) whose rowid spans a search as of it reads
    /// (`heldSpans`): 256 Ki rowids, 2 MiB, read in ~35 ms at 1M. Past it the point is late enough in the log that
    /// most matches held then. (`SearchIndex.maxHeldRows`.)
    static let defaultMaxHeldRows = 262_144
    /// Word seeks a search as of a point may spend on starting its statement again in each span (a span's
    /// statement seeks each word of its expanded prefixes: `m*` at 1M, 1,541 words, ~12 ms): `m*` gets 5 spans,
    /// a query without prefixes `maxHeldSpans`.
    static let heldSpanSeeks = 8_192
    /// The most spans a search as of a point runs its statement in.
    static let maxHeldSpans = 64

    /// As of a point where more rows held than a search seeks by rowid (`pointRowids`): rowid spans, ascending,
    /// that hold every row held then (the `docs` rows with `since <= p`, the versions with `since <= p < until`),
    /// for the search to step the matches within them only, not the matches of mail that came later, between
    /// and after them (`m*` as of sequence 50,000 of a 1M-message log stepped ~1M matches for the 25 first held:
    /// 4-5 s). The gaps cut are the widest between rows held (at most `maxHeldSpans` - 1, fewer for a query whose
    /// prefixes expand to many words: `heldSpanSeeks`) holding more than `pointSpanGap` documents. Nil: no point,
    /// or more than `maxHeldRows` rows held of either kind. Cached per point and checkpoint. A span covers more
    /// than the rows held; the statement in it still tests each row for the point.
    func heldSpans(words: Int) throws -> [ClosedRange<Int64>]? {
        guard let asOf else { return nil }
        let p = Int64(clamping: asOf)
        // The rows, and the spans last made of them for a number of words and a gap (a search and its set of the
        // rows held ask for the same).
        var checkpoint: Int64 = 0
        let held: [Int64]? = try locked { () throws(SearchIndexError) -> [Int64]? in
            checkpoint = try metaValue("checkpoint") ?? 0
            if let cached = heldRowsCache, cached.asOf == asOf, cached.checkpoint == checkpoint { return cached.rows }
            var rows = try heldRowids(at: p, now: true, atMost: maxHeldRows)
            if let now = rows { rows = try heldRowids(at: p, now: false, atMost: maxHeldRows).map { (now + $0).sorted() } }
            heldRowsCache = (asOf, checkpoint, rows, nil)
            return rows
        }
        if let cached = locked({ heldRowsCache }), cached.asOf == asOf, cached.checkpoint == checkpoint,
           let spans = cached.spans, spans.words == words, spans.gap == pointSpanGap {
            return spans.spans
        }
        guard let held else { return nil }
        guard let first = held.first, let final = held.last else { return [] }
        let most = min(Self.maxHeldSpans, max(1, Self.heldSpanSeeks / max(1, words)))
        // The widest gaps, widest first (at most `most` - 1, kept in order in one pass: no sort of up to 512 Ki),
        // cut where they hold more than `pointSpanGap` documents. Rowids come from a file: a gap is measured
        // without overflow (`held` ascends, so the difference fits in 64 bits unsigned).
        func gap(_ i: Int) -> UInt64 { UInt64(bitPattern: held[i + 1] &- held[i]) }
        var widest: [Int] = []
        for i in held.indices.dropLast() where most > 1 {
            let g = gap(i)
            if widest.count == most - 1, let narrowest = widest.last, gap(narrowest) >= g { continue }
            widest.insert(i, at: widest.firstIndex { gap($0) < g } ?? widest.count)
            if widest.count > most - 1 { widest.removeLast() }
        }
        let cuts: [Int] = try locked { () throws(SearchIndexError) -> [Int] in
            var cuts: [Int] = []
            for i in widest where try documents(between: held[i], and: held[i + 1], atMost: pointSpanGap) > pointSpanGap {
                cuts.append(i)
            }
            return cuts.sorted()
        }
        var spans: [ClosedRange<Int64>] = []
        var low = first
        for i in cuts {
            spans.append(low...held[i])
            low = held[i + 1]
        }
        spans.append(low...final)
        locked {
            if let cached = heldRowsCache, cached.asOf == asOf, cached.checkpoint == checkpoint {
                heldRowsCache?.spans = (words, pointSpanGap, spans)
            }
        }
        return spans
    }

    /// As of a point (`asOf`): the rowids of the `docs` rows that held at it already (`since <= p`) and of the kept
    /// versions that held at it (`since <= p < until`), each in ascending order, or nil where they are more than
    /// `maxPastRowids` (`QueryCompiler.maxPastRowids`; tests set it lower) (both nil when no point is set). Read
    /// from `docs_since` and `docs_past_until`, at most that many plus one rows of each (and the versions
    /// superseded after the point, of which those that began at it or before).
    func pointRowids() throws -> PointRowids {
        guard let asOf else { return PointRowids() }
        let p = Int64(clamping: asOf)
        return try locked { () throws -> PointRowids in
            // Kept for the searches of one point and checkpoint (a thread page makes one statement per thread).
            let checkpoint = try metaValue("checkpoint") ?? 0
            if let cached = pointRowidsCache, cached.asOf == asOf, cached.checkpoint == checkpoint { return cached.rows }
            let rows = PointRowids(now: try heldRowids(at: p, now: true, atMost: maxPastRowids),
                                   past: try heldRowids(at: p, now: false, atMost: maxPastRowids))
            pointRowidsCache = (asOf, checkpoint, rows)
            return rows
        }
    }

    /// As of `p`: the rowids of the `docs` rows that held at it already (`now`) or of the versions that held at it,
    /// in ascending order, or nil when they are more than `most` (at most `most` + 1 read). Called under `lock`.
    private func heldRowids(at p: Int64, now: Bool, atMost most: Int) throws(SearchIndexError) -> [Int64]? {
        let s = now ? try statement("SELECT rowid FROM docs WHERE since <= ? LIMIT ?")
                    : try statement("SELECT rowid FROM docs_past WHERE until > ? AND since <= ? LIMIT ?")
        try s.bind((now ? [.int(p)] : [.int(p), .int(p)]) + [.int(Int64(most) + 1)])
        defer { s.reset() }
        var out: [Int64] = []
        while try s.step() { out.append(s.int(0)) }
        return out.count > most ? nil : out.sorted()
    }

    /// The `docs` documents strictly between rowids `a` and `b`, counted up to `most` + 1. Called under `lock`.
    func documents(between a: Int64, and b: Int64, atMost most: Int) throws(SearchIndexError) -> Int {
        let count = try statement("SELECT count(*) FROM (SELECT 1 FROM docs WHERE rowid > ? AND rowid < ? LIMIT ?)")
        try count.bind([.int(a), .int(b), .int(Int64(most) + 1)])
        defer { count.reset() }
        _ = try count.step()
        return Int(count.int(0))
    }

    /// The hit of the statement's row (`QueryCompiler.columns`).
    func hit(_ s: SQLiteStatement) -> SearchHit {
        let flags = s.int(5)
        return SearchHit(emailID: s.text(1), account: s.text(2), folder: s.text(3), messageID: s.isNull(4) ? nil : s.text(4),
                         date: s.int(7), size: s.int(8), subject: s.text(9),
                         participantsField: s.text(10),
                         isSeen: flags & SearchFlags.seen != 0, isFlagged: flags & SearchFlags.flagged != 0,
                         hasAttachment: flags & SearchFlags.attachment != 0,
                         category: AICategory(rawValue: UInt8(clamping: s.int(6))) ?? .uncategorized)
    }

    /// Runs `body` with a `MatchSets` for one search, and drops its tables after.
    func withMatchSets<R>(_ body: (MatchSets) throws -> R) throws -> R {
        let sets = MatchSets()
        defer { drop(sets) }
        return try body(sets)
    }

    /// Drops the tables of `sets`.
    func drop(_ sets: MatchSets) {
        locked {
            for t in sets.tables.values { try? db.exec("DROP TABLE IF EXISTS temp.\(t)") }
            sets.tables = [:]
        }
    }

    /// Gives `compiler` the sets of `sets`: of every match, and as of a point or where the filters admit few rows
    /// (`point.now` given), of the matches among the rows held then (`pointMatchSet`).
    private func setMatchSets(_ compiler: inout QueryCompiler, _ sets: MatchSets, point: PointRowids, words: Int) {
        compiler.matchSet = { try self.matchSet($0, chunks: $1, over: $2, in: sets) }
        guard asOf != nil || point.now != nil else { return }
        compiler.pointSet = { try self.pointMatchSet($0, expanded: $1, point: point, words: words, in: sets) }
    }

    /// A compiler for a search's statements: the point searched as of and its rows held, the prefixes' words, and
    /// the sets of `sets`; and those rows held. Those are narrowed to the rows the filters of `expr` admit where
    /// they are few (`restriction`, decided once for `sets`: the statements of a threads page all read them).
    func queryCompiler(threadEmails: @escaping (String) throws -> [String], expansions: PrefixExpansions,
                       sets: MatchSets?, restrictedBy expr: SearchExpr? = nil) throws -> (compiler: QueryCompiler, point: PointRowids) {
        var compiler = QueryCompiler(threadEmails: threadEmails)
        compiler.asOf = asOf.map { Int64(clamping: $0) }
        var point = try pointRowids()
        let decided = locked { sets?.restriction }
        if case .some(let restricted) = decided {
            if let restricted { point = restricted }
        } else if let expr {
            let restricted = try restriction(expr, point: point, expansions: expansions, threadEmails: threadEmails, sets: sets)
            locked { sets?.restriction = .some(restricted) }
            if let restricted { point = restricted }
        }
        compiler.nowRowids = point.now
        compiler.pastRowids = point.past
        compiler.expansions = expansions.expressions
        compiler.heavy = expansions.heavy
        compiler.setChunkWords = setChunkWords
        if let sets { setMatchSets(&compiler, sets, point: point, words: expansions.words) }
        return (compiler, point)
    }

    /// The most postings (occurrences, as `fts5vocab` counts them) of a query's prefixes left to FTS5's prefix
    /// query together: FTS5 merges the postings of all a prefix's words in memory, ~5-6 bytes each (`t*` at 1M,
    /// 32M postings: 165 MB in sqlite3; `m*`, 12.8M: ~75 MB more than a search without it), so ~50 MB. The
    /// prefixes with the most postings are made heavy until those left are under it: their words are read a few
    /// at a time instead (`QueryCompiler.heavy`), in a list of ~24 bytes per document (24 MB at 1M), as fast or
    /// faster (`NOT t*` at 1M: 2.8 s and 82 MB against 3.6 s and 199 MB; `NOT m*` 2.6 s and 85 MB against 2.7 s
    /// and 131 MB). (`SearchIndex.maxMergedPostings`.)
    static let defaultMaxMergedPostings = 8_000_000

    /// Documents between two rowids held at a point past which they are in spans of their own: seeking a word's
    /// postings costs about what stepping a thousand rows past it does (`m*`'s 1,541 words at 1M: ~12 ms a span
    /// with no documents, ~10 us more a document). (`SearchIndex.pointSpanGap`.)
    static let defaultPointSpanGap = 1_024
    /// The most word seeks, counting `pointSpanGap` documents stepped as one, a set of the matches among the rows
    /// held at a point may cost (about 2 s); past it the set of every match is made, which costs about that for a
    /// prefix of a thousand words at 1M (`m*` 2 s, `t*` 3 s) and holds FTS5's merge of the prefix's postings in
    /// memory (~90 MB for `m*`, ~160 MB for `t*`), where this set holds only the rows of its spans.
    /// (`SearchIndex.pointSetSeeks`.)
    static let defaultPointSetSeeks = 256_000

    /// As of a point: the temp table of the rows held then that match `match` (an FTS5 expression; `expanded`, with
    /// its prefixes as the words they expand to, `words` in all), made on first use in `sets`: `expanded` run over
    /// each rowid span of the rows held (`pointSpans`), where each word's postings are read from the span's start.
    /// Every row held is in a span, so a statement as of the point may test any row it reads in it (a row outside
    /// is not held: the statement leaves it out whatever the set says). Nil when that costs more than
    /// `pointSetSeeks`, or the rows held are too many to list: the set of every match (`matchSet`), made from
    /// FTS5's prefixes, is then the cheaper. FTS5's prefix itself merges the postings of all its words whatever the
    /// span (2 s for `m*` at 1M, for a span of a thousand rows too).
    /// Why: as of a point early in the log, a search of `m*` made the set of every match (a million rowids at 1M)
    /// to test a few hundred rows: 3-20 s.
    func pointMatchSet(_ match: String, expanded: String, point: PointRowids, words: Int,
                       in sets: MatchSets) throws -> String? {
        let key = "point\u{0}" + match
        if let made = locked({ sets.tables[key] }) { return made }
        if locked({ sets.pointRefused.contains(key) }) { return nil }
        let spans: PointSpans?
        if let made = locked({ sets.pointSpans }) {
            spans = made
        } else {
            spans = try pointSpans(point, words: words)
            locked { sets.pointSpans = .some(spans) }
        }
        return try locked { () throws(SearchIndexError) -> String? in
            guard let spans, affordsPointSet(words: words, spans: spans.spans.count, documents: spans.documents) else {
                sets.pointRefused.insert(key)
                return nil
            }
            let name = "search_set_\(setsMade)"
            setsMade += 1
            try db.exec("CREATE TEMP TABLE \(name)(rowid INTEGER PRIMARY KEY)")
            sets.tables[key] = name
            let fill = try db.prepare("INSERT OR IGNORE INTO temp.\(name) SELECT rowid FROM fts WHERE fts MATCH ? AND rowid >= ? AND rowid <= ?")
            for span in spans.spans {
                try fill.run([.text(expanded), .int(span.lowerBound), .int(span.upperBound)])
            }
            return name
        }
    }

    /// Whether a set of the matches of `words` words over `spans` rowid spans holding `documents` documents costs at
    /// most `pointSetSeeks`: a seek of each word per span and per `pointSpanGap` documents. Called under `lock`.
    func affordsPointSet(words: Int, spans: Int, documents: Int) -> Bool {
        Double(max(1, words)) * (Double(spans) + Double(documents) / Double(max(1, pointSpanGap))) <= Double(pointSetSeeks)
    }

    /// Rowid spans, ascending, holding every one of `rows` (ascending, each once): two neighbours share a span unless
    /// more than `pointSpanGap` documents lie between them (a count statement per gap, at most `pointSpanGap` + 1
    /// documents each); and the documents counted: the rows and those between neighbours in one span. With `words`:
    /// nil as soon as a set of the matches over them would cost more than `pointSetSeeks` (a seek of each word per
    /// span, and per `pointSpanGap` documents), so deciding costs no more than that (a few hundred gaps counted for
    /// `m*` at 1M, where a folder of 4,000 scattered copies would have had ~4M rows counted before it was refused).
    func neighbourSpans(_ rows: [Int64], words: Int? = nil) throws -> PointSpans? {
        guard var low = rows.first else { return PointSpans(spans: [], documents: 0) }
        return try locked { () throws(SearchIndexError) -> PointSpans? in
            var spans: [ClosedRange<Int64>] = []
            var documents = rows.count
            func tooMany() -> Bool {
                guard let words else { return false }
                return !affordsPointSet(words: words, spans: spans.count + 1, documents: documents)
            }
            if tooMany() { return nil }
            for (a, b) in zip(rows, rows.dropFirst()) {
                let between = try self.documents(between: a, and: b, atMost: pointSpanGap)
                if between > pointSpanGap {
                    spans.append(low...a)
                    low = b
                } else {
                    documents += between
                }
                if tooMany() { return nil }
            }
            spans.append(low...rows[rows.count - 1])
            return PointSpans(spans: spans, documents: documents)
        }
    }

    /// As of a point: rowid spans, ascending, that hold every row held then, and about how many documents they hold;
    /// nil when the rows held are too many to list (`heldSpans`). With few of both kinds (`point`): two neighbours
    /// are in one span unless more than `pointSpanGap` documents lie between them (at most `pointSpanGap` + 1 rows
    /// of each gap counted), the documents counted those between and the rows held. Else the spans a search steps
    /// (`heldSpans`), their documents counted up to what `pointSetSeeks` allows `words` (more: nil).
    func pointSpans(_ point: PointRowids, words: Int) throws -> PointSpans? {
        if let now = point.now, let past = point.past {
            return try neighbourSpans(Array(Set(now + past)).sorted())
        }
        guard let spans = try heldSpans(words: words) else { return nil }
        let most = pointSetSeeks / max(1, words) * max(1, pointSpanGap)
        return try locked { () throws(SearchIndexError) -> PointSpans? in
            let count = try statement("SELECT count(*) FROM (SELECT 1 FROM docs WHERE rowid >= ? AND rowid <= ? LIMIT ?)")
            var documents = 0
            for span in spans {
                try count.bind([.int(span.lowerBound), .int(span.upperBound), .int(Int64(most - documents + 1))])
                _ = try count.step()
                documents += Int(count.int(0))
                count.reset()
                if documents > most { return nil }
            }
            return PointSpans(spans: spans, documents: documents)
        }
    }

    /// The temp table of the rowids matching `match` (an FTS5 expression) within `range` (nil: all), made on first
    /// use in `sets`: from `match` itself, or when `chunks` are given (expressions whose matches together are
    /// `match`'s, each reading a heavy prefix's words a few at a time: `QueryCompiler.setChunks`), from each of them
    /// in turn.
    func matchSet(_ match: String, chunks: [String], over range: ClosedRange<Int64>?, in sets: MatchSets) throws -> String {
        try locked { () throws(SearchIndexError) -> String in
            let key = match + (range.map(Self.setKeySuffix) ?? "")
            if let made = sets.tables[key] { return made }
            let name = "search_set_\(setsMade)"
            setsMade += 1
            try db.exec("CREATE TEMP TABLE \(name)(rowid INTEGER PRIMARY KEY)")
            sets.tables[key] = name
            let within = range == nil ? "" : " AND rowid >= ? AND rowid <= ?"
            let bounds: [SQLiteValue] = range.map { [.int($0.lowerBound), .int($0.upperBound)] } ?? []
            guard !chunks.isEmpty else {
                try db.prepare("INSERT INTO temp.\(name) SELECT rowid FROM fts WHERE fts MATCH ?" + within).run([.text(match)] + bounds)
                setRowsMade += db.changes
                return name
            }
            // The union made here, then inserted in order: each statement's rows inserted into the table as they
            // came cost ~0.65 us a row (`m*` at 1M by 16 words: 6.2M rows, 5 s, where stepping them took 1 s).
            let read = try db.prepare("SELECT rowid FROM fts WHERE fts MATCH ?" + within + " ORDER BY rowid")
            var union: [Int64] = []
            var rows: [Int64] = []
            for m in chunks {
                rows.removeAll(keepingCapacity: true)
                try read.bind([.text(m)] + bounds)
                defer { read.reset() }
                while try read.step() { rows.append(read.int(0)) }
                union = Self.union(union, Self.ascending(rows))
            }
            setRowsMade += union.count
            // Many rows a statement: each statement outside a transaction commits (~5 us; 1M rows one by one: 4.8 s).
            let many = Self.setInsertRows
            let insert = try db.prepare("INSERT INTO temp.\(name)(rowid) VALUES" + Array(repeating: "(?)", count: many).joined(separator: ","))
            var at = 0
            while union.count - at >= many {
                try insert.run(union[at ..< at + many].map { .int($0) })
                at += many
            }
            if at < union.count {
                let rest = union.count - at
                try db.prepare("INSERT INTO temp.\(name)(rowid) VALUES" + Array(repeating: "(?)", count: rest).joined(separator: ","))
                    .run(union[at...].map { .int($0) })
            }
            return name
        }
    }

    /// What ends the key in `MatchSets.tables` of a set made over `range` (after its FTS5 expression).
    static func setKeySuffix(_ range: ClosedRange<Int64>) -> String {
        "\u{0}\(range.lowerBound)...\(range.upperBound)"
    }

    /// Rows of a set inserted by one statement (one parameter each, under SQLite's 32,766).
    static let setInsertRows = 1_024

    /// `rows` ascending, each once: as FTS5 gives a statement's rowids, else sorted here (the index file is not
    /// trusted).
    static func ascending(_ rows: [Int64]) -> [Int64] {
        zip(rows, rows.dropFirst()).allSatisfy { $0 < $1 } ? rows : Array(Set(rows)).sorted()
    }

    /// The ascending rowids, each once, of `a` and `b` (each ascending, each rowid once: `ascending`).
    static func union(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        var out: [Int64] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] < b[j] { out.append(a[i]); i += 1 } else if b[j] < a[i] { out.append(b[j]); j += 1 } else { out.append(a[i]); i += 1; j += 1 }
        }
        out += a[i...]
        out += b[j...]
        return out
    }

    /// The copies among `emailIDs` (a thread's) that match `query`. The query runs over the rowid (date) span
    /// of those copies and its hits are intersected with them; when the span holds more matches than looking
    /// up each copy would cost (`lookupRows` per copy and word), it stops and looks each copy up instead (a
    /// long-lived thread under a common word: a prefix matching half the mail at 1M took 4.5 s a page).
    package func matching(_ query: SearchQuery, among emailIDs: [String], account: String? = nil,
                          threadEmails: @escaping (String) throws -> [String] = { _ in [] }) throws -> Set<String> {
        let query = query.indexedForm
        return try withMatchSets { sets in
            try matching(query, among: emailIDs, account: account, threadEmails: threadEmails,
                         expansions: try locked { try prefixExpansions(query.expr) }, sets: sets)
        }
    }

    /// The rowids of the copies `ids` (at most `QueryCompiler.maxThreadEmails`), as of the point searched: their
    /// current rows that held then, or the versions kept from before that did.
    func copyRowids(_ ids: [String]) throws -> [Int64] {
        try locked { () throws(SearchIndexError) in
            let list = "email_id IN (" + Array(repeating: "?", count: ids.count).joined(separator: ",") + ")"
            let s: SQLiteStatement
            if let asOf {
                // Each id is bound twice: at most 2 x `maxThreadEmails` + 3 parameters, under SQLite's 32,766.
                let p = Int64(clamping: asOf)
                s = try db.prepare("SELECT rowid FROM docs WHERE \(list) AND since <= ? UNION ALL "
                                   + "SELECT rowid FROM docs_past WHERE \(list) AND since <= ? AND until > ?")
                try s.bind(ids.map { .text($0) } + [.int(p)] + ids.map { .text($0) } + [.int(p), .int(p)])
            } else {
                s = try db.prepare("SELECT rowid FROM docs WHERE " + list)
                try s.bind(ids.map { .text($0) })
            }
            var out: [Int64] = []
            while try s.step() { out.append(s.int(0)) }
            return out
        }
    }

    /// Rows of a span stepped for each lookup of a copy and word it saves: a lookup parses the query again
    /// and seeks every word's postings (~20-40 us, and ~6 us a word at 1M), a row steps them (~1 us and a
    /// comparison a word). With 8, plain words at 100K took ~1 ms more a thread page than spans alone.
    static let lookupRows = 32
    /// SQLite instructions a row of a span is counted for (a row filtered out inside SQLite is never returned).
    static let rowInstructions = 16

    func matching(_ query: SearchQuery, among emailIDs: [String], account: String?,
                  threadEmails: @escaping (String) throws -> [String], expansions: PrefixExpansions,
                  sets: MatchSets?) throws -> Set<String> {
        let ids = Array(emailIDs.prefix(QueryCompiler.maxThreadEmails))
        guard !ids.isEmpty else { return [] }
        let members = Set(ids)
        let rowids = try copyRowids(ids)
        guard let lowest = rowids.min(), let highest = rowids.max() else { return [] }
        let compiler = try queryCompiler(threadEmails: threadEmails, expansions: expansions, sets: sets).compiler
        // Each statement is compiled before the lock is taken: a set it reads is made under the lock.
        let inSpan = try compiler.compile(query.expr, account: account, oldestFirst: false, within: lowest...highest)
        let budget = rowids.count * Self.lookupRows * (1 + expansions.words)
        // A statement of lookups is not cached: its text has one parameter per copy.
        func matches(of compiled: QueryCompiler.Compiled, cached: Bool) throws -> Set<String> {
            try memberMatches(compiled, members: members, cached: cached)
        }
        // A prefix FTS5 answers with its own prefix query is looked up no cheaper than a span is stepped: FTS5 merges
        // the prefix's postings again for each rowid of a list (`re-m*` at 1M generated messages: ~1.2 s a copy, a
        // threads page 259 s; `t*` ~2 s a copy), where a statement over a rowid range reads them over that range only
        // (0.02-0.3 s). The span then, whatever it steps.
        if QueryCompiler.leavesPrefixToFTS5(query.expr, expansions: expansions.expressions) {
            return try locked { try matches(of: inSpan, cached: true) }
        }
        if let found = try locked({ try db.bounded(instructions: budget * Self.rowInstructions, { try matches(of: inSpan, cached: true) }) }) {
            return found
        }
        let each = try compiler.compile(query.expr, account: account, oldestFirst: false, among: rowids)
        return try locked { try matches(of: each, cached: false) }
    }

    /// The FTS5 words each prefix term of `expr` expands to (`PrefixWords`; a term left out is left to FTS5's
    /// prefix). Called under `lock`: it lists words from the index's vocabulary (`terms`, or `fts5vocab` while that
    /// is not current: `listWords`) and tokenizes in a scratch in-memory database.
    func prefixExpansions(_ expr: SearchExpr) throws -> PrefixExpansions {
        var terms: [TextTerm] = []
        func collect(_ e: SearchExpr) {
            switch e {
            case .text(let t): if t.isPrefix, !terms.contains(t) { terms.append(t) }
            case .and(let parts), .or(let parts): parts.forEach(collect)
            case .not(let inner): collect(inner)
            case .all, .filter: break
            }
        }
        collect(expr)
        guard !terms.isEmpty else { return PrefixExpansions() }
        let words = try kept(\.prefixWords) { try PrefixWords() }
        // The index's vocabulary (`terms`) where it is current, else FTS5's (`fts5vocab`: every posting read).
        let fromTerms = try termsCurrent()
        if fromTerms { termListings += 1 }
        var out = PrefixExpansions()
        // Prefixes of more words than an OR driving a statement takes: listed (up to `maxSetWords`) for their
        // postings, and tokenized only if heavy (tokenizing 30,000 words took ~3 s a search).
        var listings: [TextTerm: PrefixListing] = [:]
        for t in terms.prefix(PrefixWords.maxTerms) {
            let columns = Set(SearchSchema.columns(of: t.field))
            func list(_ from: String, _ body: (String, Bool, Int) -> Bool) throws {
                try listWords(from: from, fromTerms: fromTerms) { word, column, occurrences in
                    body(word, columns.contains(column), occurrences)
                }
            }
            guard let listed = try words.listing(of: t, most: maxExpandedWords, listWords: list) else { continue }
            if listed.complete {
                if let expanded = try words.expansion(of: listed) {
                    out.expressions[t] = expanded.expression
                    out.words += expanded.words
                    out.stepWords += expanded.words * (listed.lead.isEmpty ? 1 : Self.phraseWordSteps)
                    out.heavy[t] = expanded
                }
            } else if let many = try words.listing(of: t, most: PrefixWords.maxSetWords, listWords: list), many.complete {
                listings[t] = many
            }
        }
        // The prefixes with the most postings are heavy until the others' postings fit `maxMergedPostings`.
        var postings = out.heavy.mapValues(\.postings)
        for (t, l) in listings { postings[t] = l.postings }
        var merged = postings.values.reduce(0) { $0 > Int.max - $1 ? Int.max : $0 + $1 }
        var heavy = Set<TextTerm>()
        for (t, n) in postings.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key.text < $1.key.text }) {
            if merged <= maxMergedPostings { break }
            heavy.insert(t)
            merged -= n
        }
        out.heavy = out.heavy.filter { heavy.contains($0.key) }
        for (t, l) in listings where heavy.contains(t) {
            if let expanded = try words.expansion(of: l) { out.heavy[t] = expanded }
        }
        return out
    }
}
