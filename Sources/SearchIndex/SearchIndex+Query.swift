import EventModel
import SearchQuery

extension SearchIndex {
    /// Calls `body` with each copy matching `query` (only `account`'s when given), newest first (or oldest
    /// first), until it returns false. `threadEmails` expands `thread:` terms (the threads view knows them).
    package func search(_ query: SearchQuery, account: String? = nil, oldestFirst: Bool = false,
                        threadEmails: @escaping (String) throws -> [String] = { _ in [] },
                        _ body: (SearchHit) throws -> Bool) throws {
        let compiled = try QueryCompiler(threadEmails: threadEmails).compile(query.expr, account: account, oldestFirst: oldestFirst)
        try locked {
            let s = try statement(compiled.sql)
            try s.bind(compiled.binds)
            defer { s.reset() }
            while try s.step() {
                let flags = s.int(5)
                let hit = SearchHit(emailID: s.text(1), account: s.text(2), folder: s.text(3), messageID: s.isNull(4) ? nil : s.text(4),
                                    date: s.int(7), size: s.int(8), subject: s.text(9),
                                    participants: SearchDocument.decodeParticipants(s.text(10)),
                                    isSeen: flags & SearchFlags.seen != 0, isFlagged: flags & SearchFlags.flagged != 0,
                                    hasAttachment: flags & SearchFlags.attachment != 0,
                                    category: AICategory(rawValue: UInt8(clamping: s.int(6))) ?? .uncategorized)
                if try !body(hit) { return }
            }
        }
    }

    /// The copies among `emailIDs` that match `query`, one row check each.
    package func matching(_ query: SearchQuery, among emailIDs: [String], account: String? = nil,
                          threadEmails: @escaping (String) throws -> [String] = { _ in [] }) throws -> Set<String> {
        guard !emailIDs.isEmpty else { return [] }
        var compiler = QueryCompiler(threadEmails: threadEmails)
        compiler.correlated = true
        var binds: [SQLiteValue] = emailIDs.prefix(QueryCompiler.maxThreadEmails).map { .text($0) }
        let cond = try compiler.sqlExpr(query.expr, &binds)
        var sql = "SELECT d.email_id FROM docs d WHERE d.email_id IN ("
            + Array(repeating: "?", count: min(emailIDs.count, QueryCompiler.maxThreadEmails)).joined(separator: ",") + ") AND " + cond
        if let account {
            sql += " AND d.account = ?"
            binds.append(.text(account))
        }
        return try locked {
            let s = try db.prepare(sql)
            try s.bind(binds)
            var out = Set<String>()
            while try s.step() { out.insert(s.text(0)) }
            return out
        }
    }

    /// Results grouped by thread: threads in the order of their first match, `offset` threads skipped, at
    /// most `limit`. `threadOf` gives a copy's thread (nil: the copy is its own thread, `email:ID`).
    package func searchThreads(_ query: SearchQuery, account: String? = nil, oldestFirst: Bool = false, offset: Int, limit: Int,
                               threadOf: (String) throws -> String?,
                               threadEmails: @escaping (String) throws -> [String]) throws -> [SearchThreadHit] {
        var order: [String] = []
        var byThread: [String: SearchThreadHit] = [:]
        let wanted = offset + limit
        try search(query, account: account, oldestFirst: oldestFirst, threadEmails: threadEmails) { hit in
            let t = try threadOf(hit.emailID) ?? "email:" + hit.emailID
            if byThread[t] != nil {
                byThread[t]!.emailIDs.append(hit.emailID)
                return true
            }
            if order.count == wanted { return false }
            order.append(t)
            byThread[t] = SearchThreadHit(threadID: t, emailIDs: [hit.emailID], first: hit)
            return true
        }
        var out: [SearchThreadHit] = []
        for t in order.dropFirst(offset) {
            var row = byThread[t]!
            if !t.hasPrefix("email:") {
                let more = try matching(query, among: try threadEmails(t), account: account, threadEmails: threadEmails)
                let have = Set(row.emailIDs)
                row.emailIDs += more.filter { !have.contains($0) }.sorted()
            }
            out.append(row)
        }
        return out
    }
}
