import EventModel
import SearchQuery

extension SearchIndex {
    /// Calls `body` with each copy matching `query` (only `account`'s when given), newest first (or oldest
    /// first), until it returns false. `threadEmails` expands `thread:` terms (the threads view knows them).
    /// The index is locked while `body` runs: `body` must not call back into it.
    package func search(_ query: SearchQuery, account: String? = nil, oldestFirst: Bool = false,
                        threadEmails: @escaping (String) throws -> [String] = { _ in [] },
                        _ body: (SearchHit) throws -> Bool) throws {
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

    func search(_ query: SearchQuery, account: String?, oldestFirst: Bool, threadEmails: @escaping (String) throws -> [String],
                expansions: PrefixExpansions, sets: MatchSets?, _ body: (SearchHit) throws -> Bool) throws {
        var compiler = QueryCompiler(threadEmails: threadEmails)
        compiler.asOf = asOf.map { Int64(clamping: $0) }
        let point = try pointRowids()
        compiler.nowRowids = point.now
        compiler.pastRowids = point.past
        compiler.expansions = expansions.expressions
        if let sets { compiler.matchSet = { try self.matchSet($0, in: sets) } }
        var compiled = try compiler.compile(query.expr, account: account, oldestFirst: oldestFirst)
        var last: Int64?
        // Expanded prefixes: bounded; past the bound the rest comes from the statement with FTS5's prefixes.
        let budget = expansions.expressions.isEmpty ? nil : Self.rowInstructions * expandedRowWords / max(1, expansions.words)
        let ended: Bool? = try locked {
            let s = compiled.readsSets ? try db.prepare(compiled.sql) : try statement(compiled.sql)
            try s.bind(compiled.binds)
            defer { s.reset() }
            func run() throws -> Bool {
                while try s.step() {
                    last = s.int(0)
                    if try !body(hit(s)) { return true }
                }
                return true
            }
            guard let budget else { return try run() }
            return try db.bounded(instructions: budget, run)
        }
        guard ended == nil else { return }
        compiler.expansions = [:]
        let rest: ClosedRange<Int64>? = switch (last, oldestFirst) {
        case (nil, _): nil
        case (let l?, true): l == Int64.max - 1 ? nil : (l + 1)...(Int64.max - 1)
        case (let l?, false): l == Int64.min ? nil : Int64.min...(l - 1)
        }
        if last != nil && rest == nil { return }
        compiled = try compiler.compile(query.expr, account: account, oldestFirst: oldestFirst, within: rest)
        try locked {
            let s = try db.prepare(compiled.sql)
            try s.bind(compiled.binds)
            while try s.step() {
                if try !body(hit(s)) { return }
            }
        }
    }

    /// As of a point (`asOf`): the rowids of the `docs` rows that held at it already (`since <= p`) and of the kept
    /// versions that held at it (`since <= p < until`), each in ascending order, or nil where they are more than
    /// `maxPastRowids` (`QueryCompiler.maxPastRowids`; tests set it lower) (both nil when no point is set). Read
    /// from `docs_since` and `docs_past_until`, at most that many plus one rows of each (and the versions
    /// superseded after the point, of which those that began at it or before).
    func pointRowids() throws -> (now: [Int64]?, past: [Int64]?) {
        guard let asOf else { return (nil, nil) }
        let p = Int64(clamping: asOf)
        let found: [[Int64]?] = try locked { () throws -> [[Int64]?] in
            // Kept for the searches of one point and checkpoint (a thread page makes one statement per thread).
            let checkpoint = try metaValue("checkpoint") ?? 0
            if let cached = pointRowidsCache, cached.asOf == asOf, cached.checkpoint == checkpoint { return [cached.now, cached.past] }
            let now = try fewRowids("SELECT rowid FROM docs WHERE since <= ? LIMIT ?", [.int(p)])
            let past = try fewRowids("SELECT rowid FROM docs_past WHERE until > ? AND since <= ? LIMIT ?", [.int(p), .int(p)])
            pointRowidsCache = (asOf, checkpoint, now, past)
            return [now, past]
        }
        return (found[0], found[1])
    }

    /// The rowids `sql` gives (its last parameter the limit), in ascending order, or nil when they are more than
    /// `maxPastRowids`. Called under `lock`.
    private func fewRowids(_ sql: String, _ binds: [SQLiteValue]) throws(SearchIndexError) -> [Int64]? {
        let s = try statement(sql)
        try s.bind(binds + [.int(Int64(maxPastRowids + 1))])
        defer { s.reset() }
        var out: [Int64] = []
        while try s.step() { out.append(s.int(0)) }
        return out.count > maxPastRowids ? nil : out.sorted()
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

    /// The temp table of the rowids matching `match` (an FTS5 expression), made on first use in `sets`.
    func matchSet(_ match: String, in sets: MatchSets) throws -> String {
        try locked { () throws(SearchIndexError) -> String in
            if let made = sets.tables[match] { return made }
            let name = "search_set_\(setsMade)"
            setsMade += 1
            try db.exec("CREATE TEMP TABLE \(name)(rowid INTEGER PRIMARY KEY)")
            sets.tables[match] = name
            let fill = try db.prepare("INSERT INTO temp.\(name) SELECT rowid FROM fts WHERE fts MATCH ?")
            try fill.run([.text(match)])
            return name
        }
    }

    /// The copies among `emailIDs` (a thread's) that match `query`. The query runs over the rowid (date) span
    /// of those copies and its hits are intersected with them; when the span holds more matches than looking
    /// up each copy would cost (`lookupRows` per copy and word), it stops and looks each copy up instead (a
    /// long-lived thread under a common word: a prefix matching half the mail at 1M took 4.5 s a page).
    package func matching(_ query: SearchQuery, among emailIDs: [String], account: String? = nil,
                          threadEmails: @escaping (String) throws -> [String] = { _ in [] }) throws -> Set<String> {
        try withMatchSets { sets in
            try matching(query, among: emailIDs, account: account, threadEmails: threadEmails,
                         expansions: try locked { try prefixExpansions(query.expr) }, sets: sets)
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
        let rowids: [Int64] = try locked { () throws(SearchIndexError) in
            let list = "email_id IN (" + Array(repeating: "?", count: ids.count).joined(separator: ",") + ")"
            let s: SQLiteStatement
            if let asOf {
                // The copies' versions at the point: current ones that held then, or those kept from before. Each id
                // is bound twice: at most 2 x `maxThreadEmails` + 3 parameters, under SQLite's 32,766.
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
        guard let lowest = rowids.min(), let highest = rowids.max() else { return [] }
        var compiler = QueryCompiler(threadEmails: threadEmails)
        compiler.asOf = asOf.map { Int64(clamping: $0) }
        let point = try pointRowids()
        compiler.nowRowids = point.now
        compiler.pastRowids = point.past
        compiler.expansions = expansions.expressions
        if let sets { compiler.matchSet = { try self.matchSet($0, in: sets) } }
        // Each statement is compiled before the lock is taken: a set it reads is made under the lock.
        let inSpan = try compiler.compile(query.expr, account: account, oldestFirst: false, within: lowest...highest)
        let budget = rowids.count * Self.lookupRows * (1 + expansions.words)
        // A statement of lookups is not cached: its text has one parameter per copy.
        func matches(of compiled: QueryCompiler.Compiled, cached: Bool) throws -> Set<String> {
            let s = compiled.readsSets || !cached ? try db.prepare(compiled.sql) : try statement(compiled.sql)
            try s.bind(compiled.binds)
            defer { s.reset() }
            var out = Set<String>()
            while try s.step() {
                let id = s.text(1)
                if members.contains(id) { out.insert(id) }
            }
            return out
        }
        if let found = try locked({ try db.bounded(instructions: budget * Self.rowInstructions, { try matches(of: inSpan, cached: true) }) }) {
            return found
        }
        let each = try compiler.compile(query.expr, account: account, oldestFirst: false, among: rowids)
        return try locked { try matches(of: each, cached: false) }
    }

    /// Results grouped by thread: threads in the order of their first match, `offset` threads skipped, at
    /// most `limit`. `threadOf` gives a copy's thread (nil: the copy is its own thread, `email:ID`). Of the
    /// threads skipped only their ids are kept (eight bytes each for the views' 16-hex-digit ids), so an
    /// offset of a million costs a set of ids, not a million rows.
    package func searchThreads(_ query: SearchQuery, account: String? = nil, oldestFirst: Bool = false, offset: Int, limit: Int,
                               threadOf: (String) throws -> String?,
                               threadEmails: @escaping (String) throws -> [String]) throws -> [SearchThreadHit] {
        var order: [String] = []
        var byThread: [String: SearchThreadHit] = [:]
        var skipped = SkippedThreads()
        // The prefixes are expanded, and the sets made, once for the page's query and each thread's.
        let sets = MatchSets()
        defer { drop(sets) }
        let expansions = try locked { try prefixExpansions(query.expr) }
        try search(query, account: account, oldestFirst: oldestFirst, threadEmails: threadEmails, expansions: expansions, sets: sets) { hit in
            // A copy that is its own thread is matched once: it is never seen again.
            guard let thread = try threadOf(hit.emailID) else {
                if skipped.count < offset {
                    skipped.count += 1
                    return true
                }
                if order.count == limit { return false }
                let t = "email:" + hit.emailID
                order.append(t)
                byThread[t] = SearchThreadHit(threadID: t, emailIDs: [hit.emailID], first: hit)
                return true
            }
            if byThread[thread] != nil {
                byThread[thread]!.emailIDs.append(hit.emailID)
                return true
            }
            if skipped.contains(thread) { return true }
            if skipped.count < offset {
                skipped.insert(thread)
                return true
            }
            if order.count == limit { return false }
            order.append(thread)
            byThread[thread] = SearchThreadHit(threadID: thread, emailIDs: [hit.emailID], first: hit)
            return true
        }
        var out: [SearchThreadHit] = []
        for t in order {
            var row = byThread[t]!
            if !t.hasPrefix("email:") {
                let more = try matching(query, among: try threadEmails(t), account: account, threadEmails: threadEmails,
                                        expansions: expansions, sets: sets)
                let have = Set(row.emailIDs)
                row.emailIDs += more.filter { !have.contains($0) }.sorted()
            }
            out.append(row)
        }
        return out
    }

    /// The FTS5 words each prefix term of `expr` expands to (`PrefixWords`; a term left out is left to FTS5's
    /// prefix). Called under `lock`: it lists words from the index's vocabulary (`fts5vocab`, made in the
    /// connection's temp schema on first use) and tokenizes in a scratch in-memory database.
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
        let words: PrefixWords
        if let made = prefixWords {
            words = made
        } else {
            try db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.prefix_words USING fts5vocab(main, fts, 'col')")
            words = try PrefixWords()
            prefixWords = words
        }
        var out = PrefixExpansions()
        for t in terms.prefix(PrefixWords.maxTerms) {
            let columns = Set(SearchSchema.columns(of: t.field))
            let expanded = try words.expansion(of: t) { from, body in
                let s = try statement("SELECT term, col FROM temp.prefix_words WHERE term >= ?")
                try s.bind([.text(from)])
                defer { s.reset() }
                while try s.step() {
                    if !body(s.text(0), columns.contains(s.text(1))) { return }
                }
            }
            if let expanded {
                out.expressions[t] = expanded.expression
                out.words += expanded.words
            }
        }
        return out
    }
}
