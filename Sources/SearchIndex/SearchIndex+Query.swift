import EventModel
import SearchQuery

extension SearchIndex {
    /// Calls `body` with each copy matching `query` (only `account`'s when given), newest first (or oldest
    /// first), until it returns false. `threadEmails` expands `thread:` terms (the threads view knows them).
    /// The index is locked while `body` runs: `body` must not call back into it.
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
                                    participantsField: s.text(10),
                                    isSeen: flags & SearchFlags.seen != 0, isFlagged: flags & SearchFlags.flagged != 0,
                                    hasAttachment: flags & SearchFlags.attachment != 0,
                                    category: AICategory(rawValue: UInt8(clamping: s.int(6))) ?? .uncategorized)
                if try !body(hit) { return }
            }
        }
    }

    /// The copies among `emailIDs` (a thread's) that match `query`: the query runs once over the rowid
    /// (date) span of those copies, and its hits are intersected with them.
    package func matching(_ query: SearchQuery, among emailIDs: [String], account: String? = nil,
                          threadEmails: @escaping (String) throws -> [String] = { _ in [] }) throws -> Set<String> {
        let ids = Array(emailIDs.prefix(QueryCompiler.maxThreadEmails))
        guard !ids.isEmpty else { return [] }
        let members = Set(ids)
        let span: ClosedRange<Int64>? = try locked { () throws(SearchIndexError) in
            let s = try db.prepare("SELECT min(rowid), max(rowid) FROM docs WHERE email_id IN ("
                                   + Array(repeating: "?", count: ids.count).joined(separator: ",") + ")")
            try s.bind(ids.map { .text($0) })
            guard try s.step(), !s.isNull(0) else { return nil }
            return s.int(0)...s.int(1)
        }
        guard let span else { return [] }
        let compiled = try QueryCompiler(threadEmails: threadEmails).compile(query.expr, account: account, oldestFirst: false, within: span)
        return try locked {
            let s = try statement(compiled.sql)
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
        try search(query, account: account, oldestFirst: oldestFirst, threadEmails: threadEmails) { hit in
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
                let more = try matching(query, among: try threadEmails(t), account: account, threadEmails: threadEmails)
                let have = Set(row.emailIDs)
                row.emailIDs += more.filter { !have.contains($0) }.sorted()
            }
            out.append(row)
        }
        return out
    }
}
