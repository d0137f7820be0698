import SearchQuery

extension SearchIndex {
    /// Results grouped by thread: threads in the order of their first match, `offset` threads skipped, at
    /// most `limit`. `threadOf` gives a copy's thread (nil: the copy is its own thread, `email:ID`). Of the
    /// threads skipped only their ids are kept (eight bytes each for the views' 16-hex-digit ids), so an
    /// offset of a million costs a set of ids, not a million rows.
    package func searchThreads(_ query: SearchQuery, account: String? = nil, oldestFirst: Bool = false, offset: Int, limit: Int,
                               threadOf: (String) throws -> String?,
                               threadEmails: @escaping (String) throws -> [String]) throws -> [SearchThreadHit] {
        let query = query.indexedForm
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
        // Each thread's other matching copies, found for the page's threads together.
        let grouped = order.filter { !$0.hasPrefix("email:") }
        let copies = try grouped.map { Array(try threadEmails($0).prefix(QueryCompiler.maxThreadEmails)) }
        let matched = try threadMatches(query, threads: copies, account: account, threadEmails: threadEmails,
                                        expansions: expansions, sets: sets)
        let more = Dictionary(uniqueKeysWithValues: zip(grouped, matched))
        // A row's copies: its first match (in the page's order), then the others in email-id order, whichever way they
        // were found (in the scan, or by `threadMatches` when the page filled before the scan reached them): a page's
        // rows are then the same as in a larger page (they had differed in the order of the copies after the first).
        return order.map { t in
            var row = byThread[t]!
            let first = row.emailIDs[0]
            var rest = Set(row.emailIDs.dropFirst())
            if let found = more[t] { rest.formUnion(found) }
            rest.remove(first)
            row.emailIDs = [first] + rest.sorted()
            return row
        }
    }

    /// The most copies of a page's threads matched together (`threadMatches`): their rowids are held and sorted, and
    /// each gap between neighbours is counted (a statement each, up to `pointSpanGap` + 1 documents); more, and each
    /// thread is matched on its own. (`SearchIndex.maxCopiesMatchedTogether`.)
    static let defaultMaxCopiesMatchedTogether = 4_096

    /// For each of `threads` (its copies' email ids, at most `QueryCompiler.maxThreadEmails`), its copies that match
    /// `query`. For a query with prefixes expanded to words, the query runs once over each rowid span of all the
    /// threads' copies (two neighbours share a span unless more than `pointSpanGap` documents lie between them) and
    /// its hits are kept where they are a thread's copies, when that makes fewer spans than threads; else, or when
    /// the spans step more rows than looking each copy up would cost (`lookupRows`), each thread is matched on its
    /// own (`matching`).
    /// Why: each statement seeks every word of the expanded prefixes from its span's start: `m*` at 1M (1,541 words)
    /// ~17-35 ms a thread, even of one copy; a page's 25 threads took 0.27-0.46 s, mostly for those seeks, where the
    /// copies of a page's threads, recent mail and its replies, lie in a few spans.
    func threadMatches(_ query: SearchQuery, threads: [[String]], account: String?,
                       threadEmails: @escaping (String) throws -> [String], expansions: PrefixExpansions,
                       sets: MatchSets?) throws -> [Set<String>] {
        func each() throws -> [Set<String>] {
            try threads.map { try matching(query, among: $0, account: account, threadEmails: threadEmails, expansions: expansions, sets: sets) }
        }
        // A prefix left to FTS5's own prefix query costs a merge of its postings in each statement (`matching`): the
        // page's threads are matched by one statement over the rowids between their copies (`re-re-m*` at 1M
        // generated messages: 32 s in a statement per thread).
        let leftToFTS5 = QueryCompiler.leavesPrefixToFTS5(query.expr, expansions: expansions.expressions)
        guard expansions.words > 0 || leftToFTS5, threads.count > 1 else { return try each() }
        var rowids: [Int64] = []
        for ids in threads where !ids.isEmpty {
            rowids += try copyRowids(ids)
            if rowids.count > maxCopiesMatchedTogether { return try each() }
        }
        let held = Array(Set(rowids)).sorted()
        guard !held.isEmpty else { return threads.map { _ in [] } }
        // Left to FTS5: one span, all of it stepped, whatever that costs (lookups would cost more).
        let spans: [ClosedRange<Int64>]
        if leftToFTS5 {
            spans = [held[0]...held[held.count - 1]]
        } else {
            guard let cut = try neighbourSpans(held)?.spans, cut.count < threads.count else { return try each() }
            spans = cut
        }
        let compiler = try queryCompiler(threadEmails: threadEmails, expansions: expansions, sets: sets).compiler
        // Compiled before the lock is taken: a set a statement reads is made under the lock.
        let statements = try spans.map { try compiler.compile(query.expr, account: account, oldestFirst: false, within: $0) }
        let members = Set(threads.joined())
        func run() throws -> Set<String> {
            try statements.reduce(into: Set<String>()) { found, compiled in found.formUnion(try memberMatches(compiled, members: members)) }
        }
        let budget = held.count * Self.lookupRows * (1 + expansions.words) * Self.rowInstructions
        let found: Set<String>? = try locked { leftToFTS5 ? try run() : try db.bounded(instructions: budget, run) }
        guard let found else { return try each() }
        return threads.map { Set($0).intersection(found) }
    }

    /// The email ids among `members` of the rows `compiled` yields (its second column), in one run of it (a statement
    /// kept for the next search when `cached` and it reads no set). Call under `lock`.
    func memberMatches(_ compiled: QueryCompiler.Compiled, members: Set<String>, cached: Bool = true) throws -> Set<String> {
        threadStatements += 1
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
}
