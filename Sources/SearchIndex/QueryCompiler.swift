import EventModel
import SearchQuery

/// Turns a query tree into one SQL statement over `docs` and `fts` (and, as of a past point, `docs_past`).
///
/// The top level's conjuncts that FTS5 can express (words, phrases, AND/OR of them, and `NOT x` beside a
/// positive term) become one MATCH expression that drives the statement: FTS5 yields its rowids in order,
/// which is date order, so the first page costs a few posting-list steps and no sort. Top-level date ranges
/// become rowid ranges on the driver. Everything else is a condition on `docs`; text under NOT or mixed with
/// filters under OR is a membership test `d.rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?)`.
struct QueryCompiler {
    /// The email ids of a thread (`thread:`), from the threads view.
    let threadEmails: (String) throws -> [String]
    /// The most emails a `thread:` term expands to.
    static let maxThreadEmails = 10_000
    /// For prefix terms, the FTS5 expression of the words they expand to (`PrefixWords`); a prefix term not
    /// here is left to FTS5's prefix query.
    var expansions: [TextTerm: String] = [:]
    /// The expanded prefix terms whose words have too many postings for FTS5's prefix query to merge in memory
    /// (`PrefixExpansions.heavy`, `SearchIndex.maxMergedPostings`): a set of every match reads their words a few at a time (`setChunks`), and
    /// no expression of this compiler leaves them to FTS5's prefix.
    var heavy: [TextTerm: PrefixExpansion] = [:]
    /// Text is tested in sets of every match (`matchSet`), probed per row of `docs` in rowid order, instead of an
    /// FTS5 expression driving the statement: for the statement run again after the one with expanded words
    /// stepped past its budget, when a heavy prefix would have FTS5 merge all its postings.
    var textAsSets = false
    /// The name of a table holding the rowids that match an FTS5 expression (`MatchSets`: made once for a
    /// search, whose statements all use it), given it with FTS5's prefixes (the table's key) and as expressions
    /// whose matches together are its matches, each run in turn (`setChunks`; none: the expression itself);
    /// nil: a subquery SQLite runs again in each statement.
    var matchSet: ((_ plain: String, _ chunks: [String], _ range: ClosedRange<Int64>?) throws -> String)?
    /// The rowid range the sets of every match a statement reads are made over (`compile`'s `within`; nil: the
    /// whole index): a statement reads no row outside it, so a set need hold no match outside it (a search runs a
    /// statement that tests text in sets over a few rowid windows from its first results on, not over all the
    /// matches there are: `SearchIndex.searchWindows`).
    var setRange: ClosedRange<Int64>?
    /// Words of a heavy prefix read by one statement of a set of every match (`setChunks`): FTS5 compares
    /// each word of an OR for each row it steps, and every statement's rows are merged into the set.
    /// `t*` at 1M (1,425 words, 32M postings, every document), each statement's rows inserted into the set:
    /// 3.4 s and 8 MB by groups of 16, 3.6 s by 32, 4.0 s by 8, 4.5 s by 256; FTS5's prefix 2.7 s and 165 MB
    /// (sqlite3, 2026-11-30). Merged in a list first (`SearchIndex.matchSet`), `NOT t*` took 2.8 s in all.
    static let defaultSetChunkWords = 16
    /// The words (and prefixes) of a heavy prefix in one expression of `setChunks` (`defaultSetChunkWords`; tests
    /// set fewer).
    var setChunkWords = QueryCompiler.defaultSetChunkWords
    /// As of a point: the name of a table of the rows held then that match an FTS5 expression, given it with FTS5's
    /// prefixes and with their expanded words (`SearchIndex.pointMatchSet`: the words' postings read over rowid
    /// spans holding every row held); nil when that would cost more than the set of every match (`matchSet`), which
    /// is then used.
    var pointSet: ((_ plain: String, _ expanded: String) throws -> String?)?

    /// The log sequence to search as of (nil: now). Each statement is then two, joined by `UNION ALL` and merged
    /// in rowid order: one over `docs` rows whose values hold since that point or before (`since <= p`), one over
    /// `docs_past`'s versions that held at it (`since <= p < until`); a copy has at most one of those.
    var asOf: Int64?
    /// As of a point: the rowids of the versions in `docs_past` that held at it, when they are at most
    /// `maxPastRowids` (`SearchIndex.pointRowids`). The second arm then seeks those rowids (FTS5 seeks each one's
    /// postings), or is left out when there are none, instead of stepping every match to find the few that have a
    /// version then (`m*` as of the middle of a 1M-message log: 5-6 s and ~200 MB, two prefixes merged, against
    /// 1.2 s now). Nil: more than that, or not known: the arm steps the matches.
    var pastRowids: [Int64]?
    /// As of a point: the rowids of the `docs` rows whose values held at it already (`since <= p`), when they are
    /// at most `maxPastRowids` (a point early in the log, before most mail came: the first arm then seeks them
    /// instead of stepping every match of mail that came later); nil: more, or not known. Live or as of a point,
    /// narrowed to (or given by) the rows the filters admit where they are few (`SearchIndex.restriction`): the
    /// statement then reads those by rowid too.
    var nowRowids: [Int64]?
    /// The most rowids `pastRowids` (and `nowRowids`) holds. Each is bound: with a `thread:` term's ids (at most
    /// `maxThreadEmails`, in each arm) a statement binds at most 2 x 4,096 + 2 x 10,000 values and a few more,
    /// under SQLite's 32,766.
    static let maxPastRowids = 4_096

    /// What to select after the rowid (the driving table's: FTS5's when it drives, so its order needs no sort).
    static let columns = "d.email_id, d.account, d.folder, d.message_id, d.flags, d.category, d.date, d.size, d.subject, d.participants"

    struct Compiled {
        var sql: String
        var binds: [SQLiteValue]
        /// True when the statement reads a `matchSet` table (its text names one search's table: not cached).
        var readsSets = false
    }

    /// The statement for `expr`; `within` narrows it to a rowid range (a thread's span), `among` to those rowids
    /// (at most `maxThreadEmails`: each is bound).
    func compile(_ expr: SearchExpr, account: String?, oldestFirst: Bool, within: ClosedRange<Int64>? = nil,
                 among: [Int64]? = nil) throws -> Compiled {
        var ranged = self
        ranged.setRange = within
        return try ranged.compiled(expr, account: account, oldestFirst: oldestFirst, within: within, among: among)
    }

    private func compiled(_ expr: SearchExpr, account: String?, oldestFirst: Bool, within: ClosedRange<Int64>?,
                          among: [Int64]?) throws -> Compiled {
        let order = oldestFirst ? "ASC" : "DESC"
        func narrowed(_ few: [Int64]?) -> [Int64]? {
            guard let few else { return among }
            return among.map { a in let s = Set(a); return few.filter { s.contains($0) } } ?? few
        }
        guard let asOf else {
            // The rows the filters admit, where they are few: read by rowid, each tested for the text.
            let nowAmong = narrowed(nowRowids)
            if nowAmong?.isEmpty == true { return Compiled(sql: "SELECT d.rowid, \(Self.columns) FROM docs d WHERE 0", binds: []) }
            let (sql, binds, rowid) = try select(expr, from: "docs", account: account, within: within, among: nowAmong, versions: [],
                                                 seek: nowRowids != nil)
            return Compiled(sql: sql + " ORDER BY \(rowid) \(order)", binds: binds,
                            readsSets: matchSet != nil && sql.contains(Self.setMark))
        }
        // Many current rows held (the point is not early in the log) and text FTS5 can drive the statement: one
        // statement, each match joined to the version of its copy that held at the point (`heldVersions`).
        if nowRowids == nil, !textAsSets, Self.conjuncts(of: expr).contains(where: { fts($0) != nil }) {
            let (sql, binds, rowid) = try select(expr, from: Self.heldTable, account: account, within: within, among: among, versions: [])
            return Compiled(sql: sql + " ORDER BY \(rowid) \(order)", binds: binds,
                            readsSets: matchSet != nil && sql.contains(Self.setMark))
        }
        var arms: [(sql: String, binds: [SQLiteValue], rowid: String)] = []
        let nowAmong = narrowed(nowRowids)
        if nowAmong?.isEmpty != true {
            arms.append(try select(expr, from: "docs", account: account, within: within, among: nowAmong,
                                   versions: [("d.since <= ?", .int(asOf))], seek: nowRowids != nil))
        }
        let pastAmong = narrowed(pastRowids)
        if pastAmong?.isEmpty != true {
            arms.append(try select(expr, from: "docs_past", account: account, within: within, among: pastAmong,
                                   versions: [("d.since <= ?", .int(asOf)), ("d.until > ?", .int(asOf))], seek: pastRowids != nil))
        }
        let sql: String
        switch arms.count {
        case 0: sql = "SELECT d.rowid, \(Self.columns) FROM docs d WHERE 0"
        case 1: sql = arms[0].sql + " ORDER BY \(arms[0].rowid) \(order)"
        default: sql = arms[0].sql + " UNION ALL " + arms[1].sql + " ORDER BY 1 \(order)"
        }
        return Compiled(sql: sql, binds: arms.flatMap(\.binds), readsSets: matchSet != nil && sql.contains(Self.setMark))
    }

    /// One `SELECT` of `expr` over `table` (`docs`, or `docs_past` as of a point) with `versions`' conditions,
    /// without its order; and the column its rows are ordered by.
    ///
    /// `seek`: the rows are those of `among` (a few versions held at a point), read by rowid, each tested for the
    /// text: FTS5 seeks the rowid in each word's postings (`EXISTS … rowid = d.rowid`), or, for a query with a
    /// prefix, the rowid is looked up in a set made once for the search: of the matches among the rows held
    /// (`pointSet`), or of every match (`matchSet`) where that costs less. A statement
    /// FTS5 drives with the rowids as a list would run its query once per rowid: with a prefix's expanded words
    /// (~1,500 for `m*`), a seek per word and rowid, minutes for a few thousand versions; with FTS5's own prefix,
    /// the prefix's postings merged each time.
    private func select(_ expr: SearchExpr, from table: String, account: String?, within: ClosedRange<Int64>?, among: [Int64]?,
                        versions: [(String, SQLiteValue)], seek: Bool = false) throws -> (sql: String, binds: [SQLiteValue], rowid: String) {
        let conjuncts = Self.conjuncts(of: expr)
        var match: [SearchExpr] = []
        var negated: [SearchExpr] = []
        var rest: [SearchExpr] = []
        var lower: Int64? = within?.lowerBound, upper: Int64? = within.flatMap { $0.upperBound == .max ? nil : $0.upperBound + 1 }
        for c in conjuncts {
            if case .not(let inner) = c, fts(inner) != nil {
                negated.append(inner)
            } else if fts(c) != nil {
                match.append(c)
            } else if case .filter(.date(let lo, let hi)) = c {
                if let lo { lower = max(lower ?? .min, SearchSchema.rowid(atSecond: lo)) }
                if let hi { upper = min(upper ?? .max, SearchSchema.rowid(atSecond: hi)) }
            } else {
                rest.append(c)
            }
        }
        var binds: [SQLiteValue] = []
        var conds: [String] = []
        var sql: String
        let rowidColumn: String
        if (seek || textAsSets && matchSet != nil) && !match.isEmpty {
            let m = matchExpression(match, not: negated, expand: false)
            sql = "SELECT d.rowid, \(Self.columns) FROM \(table) d"
            if let matchSet, Self.hasPrefix(expr) || textAsSets {
                conds.append(try seekMembership(match, not: negated, every: matchSet))
            } else {
                conds.append("EXISTS (SELECT 1 FROM fts WHERE fts MATCH ? AND fts.rowid = d.rowid)")
                binds.append(.text(m))
            }
            rowidColumn = "d.rowid"
        } else if !match.isEmpty, table == Self.heldTable, let asOf {
            sql = "SELECT d.rowid, \(Self.columns) FROM (\(Self.heldVersions)) d"
            binds += [.int(asOf), .int(asOf), .int(asOf), .text(matchExpression(match, not: negated, expand: true))]
            rowidColumn = "d.rowid"
        } else if !match.isEmpty {
            let m = matchExpression(match, not: negated, expand: true)
            sql = "SELECT fts.rowid, \(Self.columns) FROM fts CROSS JOIN \(table) d ON d.rowid = fts.rowid"
            conds.append("fts MATCH ?")
            binds.append(.text(m))
            rowidColumn = "fts.rowid"
        } else {
            sql = "SELECT d.rowid, \(Self.columns) FROM \(table) d"
            for n in negated { conds.append("NOT (" + (try membership(n, &binds, seek: seek)) + ")") }
            rowidColumn = "d.rowid"
        }
        if let lower {
            conds.append("\(rowidColumn) >= ?")
            binds.append(.int(lower))
        }
        if let upper {
            conds.append("\(rowidColumn) < ?")
            binds.append(.int(upper))
        }
        if let among {
            conds.append("\(rowidColumn) IN (" + Array(repeating: "?", count: among.count).joined(separator: ",") + ")")
            binds += among.map { .int($0) }
        }
        for (cond, value) in versions {
            conds.append(cond)
            binds.append(value)
        }
        for r in rest { conds.append(try sqlExpr(r, &binds, seek: seek)) }
        if let account { conds.append(try filter(.account(account), &binds, seek: seek)) }
        if !conds.isEmpty { sql += " WHERE " + conds.joined(separator: " AND ") }
        return (sql, binds, rowidColumn)
    }

    /// The top level's conjuncts of `expr` (itself when it is not an AND).
    static func conjuncts(of expr: SearchExpr) -> [SearchExpr] {
        if case .and(let parts) = expr { return parts }
        return [expr]
    }

    /// The name `select` takes for `heldVersions`.
    static let heldTable = "held"

    /// As of a point (bound three times, then the FTS5 expression): each match of the expression, in FTS5's rowid
    /// order, with the values its copy had at the point: the `docs` row if they held since then or before
    /// (`since <= p`), else the version in `docs_past` that held then (`since <= p < until`; a copy has at most one
    /// of those), else no row. SQLite flattens it into the statement that selects from it: FTS5 drives, so the
    /// rowid range and order reach FTS5 and a first page steps a few dozen matches; each match costs two lookups by
    /// rowid. The text is tested once for both kinds of row: a copy's versions all have its text (its terms stay in
    /// `fts` while it has a row in either table).
    /// Why: with a statement of its own over `docs_past`, the few versions held inside an import chunk (copies not
    /// yet categorized: scattered over the rowid range) were each tested in a set of every match of a prefix
    /// (`m*` at 1M: ~2 s to make), and with more versions held every match was stepped twice.
    static let heldVersions: String = {
        let names = ["email_id", "account", "folder", "message_id", "flags", "category", "date", "size", "subject", "participants"]
        let values = names.map { "CASE WHEN a.rowid IS NULL THEN b.\($0) ELSE a.\($0) END AS \($0)" }
        return "SELECT fts.rowid AS rowid, " + values.joined(separator: ", ")
            + " FROM fts LEFT JOIN docs a ON a.rowid = fts.rowid AND a.since <= ?"
            + " LEFT JOIN docs_past b ON b.rowid = fts.rowid AND b.since <= ? AND b.until > ?"
            + " WHERE fts MATCH ? AND (a.rowid IS NOT NULL OR b.rowid IS NOT NULL)"
    }()

    /// The FTS5 expression of the conjuncts `match` (each one FTS5 expresses) without those of `negated`.
    func matchExpression(_ match: [SearchExpr], not negated: [SearchExpr], expand: Bool) -> String {
        let parts = match.map { fts($0, expand: expand)! }
        var m = parts.count == 1 ? parts[0] : parts.map { "(\($0))" }.joined(separator: " AND ")
        for n in negated { m = "(\(m)) NOT (\(fts(n, expand: expand)!))" }
        return m
    }

    /// The expression of `match` without `negated` with the heavy prefixes as their words and the others as
    /// FTS5's prefixes: one statement whose memory is bounded (FTS5 reads each word's postings as it steps, and
    /// merges the other prefixes' postings, at most `maxMergedPostings` together), not its time (a comparison per word
    /// for each row stepped).
    func boundedExpression(_ match: [SearchExpr], not negated: [SearchExpr]) -> String {
        var c = self
        c.expansions = heavy.mapValues(\.expression)
        return c.matchExpression(match, not: negated, expand: true)
    }

    /// For a set of every match of `match` without `negated`: FTS5 expressions whose matches together are its
    /// matches, run one after the other; empty when none of its prefixes is heavy (the expression itself is run,
    /// FTS5's prefixes merging at most `maxMergedPostings` postings together).
    /// With heavy prefixes, they are their words (`boundedExpression`), and the heaviest that no NOT negates is
    /// split into groups of `setChunkWords` words and prefixes, an expression each. The union is exact: an
    /// expression without NOT over a term matches a document when it does with the term as the one group that
    /// holds the document's word (each occurrence of the term is true of the document or false, whichever group
    /// read it). A heavy prefix under NOT is not split: one expression (`seekMembership` tests such an expression
    /// part by part first, `partMembership`, so this is left for a statement without sets).
    /// Why: FTS5's prefix query merges the postings of all the prefix's words in memory: `NOT t*` at 1M (32M
    /// postings) took 199 MB, and more with the corpus; by groups, ~8 MB whatever the corpus.
    func setChunks(_ match: [SearchExpr], not negated: [SearchExpr]) -> [String] {
        let found = prefixTerms(match, negated: false) + prefixTerms(negated, negated: true)
        let heavyFound = found.filter { heavy[$0.term] != nil }
        guard !heavyFound.isEmpty else { return [] }
        let negative = Set(heavyFound.filter(\.negated).map(\.term))
        let split = Set(heavyFound.map(\.term)).subtracting(negative).max { a, b in
            let (pa, pb) = (heavy[a]?.postings ?? 0, heavy[b]?.postings ?? 0)
            return pa != pb ? pa < pb : (a.text, String(describing: a.field)) < (b.text, String(describing: b.field))
        }
        guard let split, let parts = heavy[split]?.parts, !parts.isEmpty else {
            return [boundedExpression(match, not: negated)]
        }
        var c = self
        c.expansions = heavy.mapValues(\.expression)
        let size = max(1, setChunkWords)
        return stride(from: 0, to: parts.count, by: size).map { i in
            c.expansions[split] = "(" + parts[i ..< min(i + size, parts.count)].joined(separator: " OR ") + ")"
            return c.matchExpression(match, not: negated, expand: true)
        }
    }

    /// True when every prefix term of `exprs` has its words in `expansions`.
    func expandsEveryPrefix(_ exprs: [SearchExpr]) -> Bool {
        func expanded(_ e: SearchExpr) -> Bool {
            switch e {
            case .text(let t): return !t.isPrefix || expansions[t] != nil
            case .and(let parts), .or(let parts): return parts.allSatisfy(expanded)
            case .not(let inner): return expanded(inner)
            case .all, .filter: return true
            }
        }
        return exprs.allSatisfy(expanded)
    }

    /// True when `e` has a prefix term anywhere.
    /// Whether `e` has a prefix term with no expression in `expansions`: FTS5's own prefix query then answers it.
    static func leavesPrefixToFTS5(_ e: SearchExpr, expansions: [TextTerm: String]) -> Bool {
        e.contains { if case .text(let t) = $0 { t.isPrefix && expansions[t] == nil } else { false } }
    }

    /// Whether `e` has a filter or a NOT: rows its text matches may then be stepped and not returned.
    static func mayRejectMatches(_ e: SearchExpr) -> Bool {
        e.contains { switch $0 { case .filter, .not: true; default: false } }
    }

    static func hasPrefix(_ e: SearchExpr) -> Bool {
        e.contains { if case .text(let t) = $0 { t.isPrefix } else { false } }
    }

    /// The FTS5 expression for `e`, or nil when FTS5 cannot express it alone.
    /// `expand`: prefix terms as their `expansions` (the words stream; for a statement FTS5 drives, which
    /// stops at a page), else as FTS5's prefix (for a set of every match: the words' OR costs a comparison per
    /// word for each row, FTS5's prefix merges their postings once).
    func fts(_ e: SearchExpr, expand: Bool = true) -> String? {
        switch e {
        case .text(let t): return phrase(t, expand: expand)
        case .or(let parts):
            let ms = parts.map { fts($0, expand: expand) }
            guard ms.allSatisfy({ $0 != nil }) else { return nil }
            return ms.map { "(\($0!))" }.joined(separator: " OR ")
        case .and(let parts):
            var pos: [String] = [], neg: [String] = []
            for p in parts {
                if case .not(let inner) = p {
                    guard let m = fts(inner, expand: expand) else { return nil }
                    neg.append(m)
                } else {
                    guard let m = fts(p, expand: expand) else { return nil }
                    pos.append(m)
                }
            }
            guard !pos.isEmpty else { return nil }
            var m = pos.map { "(\($0))" }.joined(separator: " AND ")
            for n in neg { m = "(\(m)) NOT (\(n))" }
            return m
        default: return nil
        }
    }

    /// `{columns}: "text"` with `*` for a prefix; quotes inside the text doubled (FTS5 string syntax).
    /// A prefix term in `expansions` is its expanded words in the same columns.
    func phrase(_ t: TextTerm, expand: Bool = true) -> String {
        let names = SearchSchema.columns(of: t.field)
        let cols = names.count == 1 ? names[0] : "{" + names.joined(separator: " ") + "}"
        if expand, t.isPrefix, let words = expansions[t] { return cols + " : " + words }
        return cols + " : " + PrefixWords.quoted(t.text) + (t.isPrefix ? " *" : "")
    }

    /// A condition on `docs d` for `e`.
    func sqlExpr(_ e: SearchExpr, _ binds: inout [SQLiteValue], seek: Bool = false) throws -> String {
        switch e {
        case .all: return "1"
        case .text:
            return try membership(e, &binds, seek: seek)
        case .and(let parts), .or(let parts):
            if fts(e) != nil { return try membership(e, &binds, seek: seek) }
            var out: [String] = []
            for p in parts { out.append(try sqlExpr(p, &binds, seek: seek)) }
            let op: String
            if case .and = e { op = " AND " } else { op = " OR " }
            return "(" + out.joined(separator: op) + ")"
        case .not(let inner):
            return "NOT (" + (try sqlExpr(inner, &binds, seek: seek)) + ")"
        case .filter(let f):
            return try filter(f, &binds, seek: seek)
        }
    }

    /// `d.rowid IN` the copies matching `e` (which `fts` expresses): a `matchSet` table, or a subquery.
    /// As of a point, or `seek` (in a statement that reads a few rows by rowid: `select`'s `seek`): `seekMembership`.
    func membership(_ e: SearchExpr, _ binds: inout [SQLiteValue], seek: Bool = false) throws -> String {
        if let matchSet { return try seekMembership([e], not: [], every: matchSet, seek: seek) }
        let m = fts(e, expand: false)!
        binds.append(.text(heavy.isEmpty ? m : boundedExpression([e], not: [])))
        return "d.rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?)"
    }

    /// As of a point: whether the row is among the copies that match the conjuncts `match` without those of
    /// `negated` (each one FTS5 expresses), tested in a set made once for the search: of the matches among the rows
    /// held at the point (`pointSet`) when every prefix is expanded and that costs little, else of every match
    /// (`matchSet`). `seek`: in a statement that reads a few rows by rowid, probed per row (`EXISTS`), as a set of
    /// the rows held always is: `d.rowid IN set` let SQLite step a set of every match (a million rows for `m*` at
    /// 1M) and look each up among the rows held, 0.4 s a statement.
    func seekMembership(_ match: [SearchExpr], not negated: [SearchExpr], every matchSet: (String, [String], ClosedRange<Int64>?) throws -> String,
                        seek: Bool = true) throws -> String {
        let m = matchExpression(match, not: negated, expand: false)
        if expandsEveryPrefix(match + negated), let pointSet,
           let table = try pointSet(m, matchExpression(match, not: negated, expand: true)) {
            return "EXISTS (SELECT 1 FROM " + Self.setMark + table + " s WHERE s.rowid = d.rowid)"
        }
        if mixesHeavy(match) || mixesHeavy(negated, negated: true) || mixesHeavy(match + negated) {
            var conds: [String] = []
            for c in match { conds.append(try partMembership(c, every: matchSet, seek: seek)) }
            for n in negated { conds.append("NOT (" + (try partMembership(n, every: matchSet, seek: seek)) + ")") }
            return "(" + conds.joined(separator: " AND ") + ")"
        }
        var chunks = setChunks(match, not: negated)
        // A set over a range: a light prefix as its words, read from the range's start (FTS5's prefix merges all its
        // postings whatever the range).
        if chunks.isEmpty, setRange != nil, (match + negated).contains(where: Self.hasPrefix), expandsEveryPrefix(match + negated) {
            chunks = [matchExpression(match, not: negated, expand: true)]
        }
        let table = Self.setMark + (try matchSet(m, chunks, setRange))
        return seek ? "EXISTS (SELECT 1 FROM " + table + " s WHERE s.rowid = d.rowid)" : "d.rowid IN " + table
    }

    /// Whether the row matches `e` (which FTS5 expresses), tested in sets (`seekMembership`): where `e` has a heavy
    /// prefix beside another prefix or under a NOT (`mixesHeavy`), an AND, OR or NOT of its parts' sets (FTS5's
    /// operators are those of sets of documents), so a set split by a heavy prefix has no other prefix in its
    /// statements and the prefix no NOT over it.
    /// Why: each of those statements would run the other prefix again: FTS5's merge of its postings (`NOT (t* m*)`
    /// at 1M: 152 s), or its words as an OR (68 s); a set of each part, 5-8 s. A heavy prefix under NOT cannot be
    /// split (the groups' sets would not add up), and all its words in one OR cost a comparison each per row.
    func partMembership(_ e: SearchExpr, every matchSet: (String, [String], ClosedRange<Int64>?) throws -> String, seek: Bool) throws -> String {
        guard mixesHeavy([e]) else { return try seekMembership([e], not: [], every: matchSet, seek: seek) }
        switch e {
        case .and(let parts), .or(let parts):
            var conds: [String] = []
            for p in parts {
                if case .not(let inner) = p {
                    conds.append("NOT (" + (try partMembership(inner, every: matchSet, seek: seek)) + ")")
                } else {
                    conds.append(try partMembership(p, every: matchSet, seek: seek))
                }
            }
            if case .and = e { return "(" + conds.joined(separator: " AND ") + ")" }
            return "(" + conds.joined(separator: " OR ") + ")"
        case .not(let inner):
            return "NOT (" + (try partMembership(inner, every: matchSet, seek: seek)) + ")"
        case .text, .all, .filter:
            return try seekMembership([e], not: [], every: matchSet, seek: seek)
        }
    }

    /// True when `exprs` have a heavy prefix term (`heavy`) beside another prefix term, or under a NOT (each of
    /// `exprs` is under a NOT when `negated`).
    func mixesHeavy(_ exprs: [SearchExpr], negated: Bool = false) -> Bool {
        guard !heavy.isEmpty else { return false }
        let found = prefixTerms(exprs, negated: negated)
        let heavyFound = found.filter { heavy[$0.term] != nil }
        return !heavyFound.isEmpty && (Set(found.map(\.term)).count > 1 || heavyFound.contains(where: \.negated))
    }

    /// Each occurrence of a prefix term in `exprs`, and whether an odd number of NOTs is over it (each of `exprs`
    /// under one more when `negated`).
    func prefixTerms(_ exprs: [SearchExpr], negated: Bool) -> [PrefixOccurrence] {
        var out: [PrefixOccurrence] = []
        func walk(_ e: SearchExpr, _ under: Bool) {
            switch e {
            case .text(let t): if t.isPrefix { out.append(PrefixOccurrence(term: t, negated: under)) }
            case .and(let parts), .or(let parts): parts.forEach { walk($0, under) }
            case .not(let inner): walk(inner, !under)
            case .all, .filter: break
            }
        }
        for e in exprs { walk(e, negated) }
        return out
    }

    /// The schema of `matchSet` tables.
    static let setMark = "temp."

    /// The condition on `docs d` of a filter. `seek`: in a statement that reads a few rows by rowid, where a column
    /// with an index is written `+d.column` so SQLite does not drive the statement by that index instead (a window of
    /// `thread:X folder:Sent t*` at 1M stepped Sent's index entries in the window: 0.15 s a window, then more than a
    /// statement's budget).
    func filter(_ f: FilterTerm, _ binds: inout [SQLiteValue], seek: Bool = false) throws -> String {
        let d = seek ? "+d." : "d."
        switch f {
        case .account(let a):
            binds.append(.text(a))
            return d + "account = ?"
        case .folder(let name):
            binds.append(.text(name))
            return d + "folder = ? COLLATE NOCASE"
        case .messageID(let id):
            binds.append(.text(id))
            // A message with no Message-ID has NULL there, and `NULL = ?` is NULL, which NOT keeps NULL: `NOT id:X` left
            // such messages out. `IS NOT NULL` makes the condition false for them (the index still drives `= ?`).
            return "(" + d + "message_id = ? AND " + d + "message_id IS NOT NULL)"
        case .thread(let id):
            let ids = try threadEmails(id).prefix(Self.maxThreadEmails)
            if ids.isEmpty { return "0" }
            binds.append(contentsOf: ids.map { .text($0) })
            return d + "email_id IN (" + Array(repeating: "?", count: ids.count).joined(separator: ",") + ")"
        case .state(let s):
            switch s {
            case .unread: return "(d.flags & \(SearchFlags.seen)) = 0"
            case .read: return "(d.flags & \(SearchFlags.seen)) != 0"
            case .starred: return "(d.flags & \(SearchFlags.flagged)) != 0"
            case .unstarred: return "(d.flags & \(SearchFlags.flagged)) = 0"
            case .attachment: return "(d.flags & \(SearchFlags.attachment)) != 0"
            }
        case .category(let name):
            let c = AICategory.allCases.first { $0.description == name } ?? .uncategorized
            binds.append(.int(Int64(c.rawValue)))
            return "d.category = ?"
        case .date(let lo, let hi):
            var parts: [String] = []
            if let lo {
                parts.append("d.rowid >= ?")
                binds.append(.int(SearchSchema.rowid(atSecond: lo)))
            }
            if let hi {
                parts.append("d.rowid < ?")
                binds.append(.int(SearchSchema.rowid(atSecond: hi)))
            }
            return parts.isEmpty ? "1" : "(" + parts.joined(separator: " AND ") + ")"
        case .size(let lo, let hi):
            var parts: [String] = []
            if let lo {
                parts.append("d.size >= ?")
                binds.append(.int(Int64(clamping: lo)))
            }
            if let hi {
                parts.append("d.size <= ?")
                binds.append(.int(Int64(clamping: hi)))
            }
            return parts.isEmpty ? "1" : "(" + parts.joined(separator: " AND ") + ")"
        }
    }
}
