import EventLog
import EventModel
import Foundation
import Glibc

extension SearchIndex {
    /// Rebuilds the index from the log up to this index's checkpoint in `scratchFolder` (removed afterwards)
    /// and compares: the row counts of documents, of their kept versions (`docs_past`) and of indexed texts
    /// (`doc_text`), every document's filter columns and every kept version, the vocabulary kept (`terms`, when
    /// current), and the text columns of `sample` documents spread over the index, as indexed. Returns the checkpoint compared and what differs
    /// (at most 50 differences).
    package func compareWithRebuild(log: EventLog, scratchFolder: String, sample: Int = 200) throws -> (sequence: UInt64, differences: [String]) {
        let seq = try checkpoint()
        try? FileManager.default.removeItem(atPath: scratchFolder)
        defer { try? FileManager.default.removeItem(atPath: scratchFolder) }
        try StoreDirectory.makePrivateDirectory(scratchFolder)
        // Built as `rebuild` builds a file (a scratch file: nothing to keep if the process dies).
        let fresh = try SearchIndex.builtAside(at: scratchFolder + "/" + SearchIndex.fileName)
        try fresh.catchUp(log: log, through: seq)
        var diffs: [String] = []
        func note(_ s: String) { if diffs.count < 50 { diffs.append(s) } }
        for table in ["docs", "docs_past", "doc_text"] {
            let a = try count(table), b = try fresh.count(table)
            if a != b { note("\(table): \(a) rows, a rebuild has \(b)") }
        }
        // Both indexes walked in email-id order side by side (memory bounded whatever their size); every
        // `step`-th document's full text is compared too.
        let step = max(1, (try count("docs")) / max(1, sample))
        var sampled: [Int64] = []
        var seen = 0
        try walkSideBySide(with: fresh, query: SearchIndex.rowsQuery, row: SearchIndex.documentRow, key: \.id,
                           stop: { diffs.count >= 50 }) { ours, rebuilt in
            switch (ours, rebuilt) {
            case (let x?, nil): note("document \(x.id) is not in a rebuild")
            case (nil, let y?): note("document \(y.id) is missing (a rebuild has it)")
            case (let x?, let y?):
                if x.row != y.row { note("document \(x.id): \(x.row) vs rebuilt \(y.row)") }
                if seen % step == 0 { sampled.append(x.row.rowid) }
                seen += 1
            case (nil, nil): break
            }
        }
        // The kept versions, side by side in key order.
        try compareSideBySide(with: fresh, query: SearchIndex.pastQuery, row: SearchIndex.pastRow, key: \.key, noun: "past version",
                              stop: { diffs.count >= 50 }, note: note)
        // The vocabulary kept (`terms`), where it is in use, against the rebuild's, made from FTS5's.
        if try locked({ try termsCurrent() }) {
            try fresh.recomputeTerms()
            try compareSideBySide(with: fresh, query: SearchIndex.termsQuery, row: SearchIndex.termRow, key: \.key, noun: "term",
                                  stop: { diffs.count >= 50 }, note: note)
        }
        for rowid in sampled {
            let a = try textRecord(rowid: rowid), b = try fresh.textRecord(rowid: rowid)
            if a != b { note("full text of row \(rowid) differs from a rebuild") }
        }
        return (seq, diffs)
    }

    /// Steps `query` on this index and on `other` side by side, both ordered by `key`, and calls `body` with the
    /// rows of one key (nil on the side that has none), until both end or `stop` says so: memory bounded whatever
    /// the tables' size.
    func walkSideBySide<Row, Key: Comparable>(with other: SearchIndex, query: String, row: (SQLiteStatement) -> Row,
                                              key: (Row) -> Key, stop: () -> Bool, _ body: (Row?, Row?) -> Void) throws {
        try locked {
            try other.locked {
                let a = try db.prepare(query), b = try other.db.prepare(query)
                var l = try a.step() ? row(a) : nil, r = try b.step() ? row(b) : nil
                while l != nil || r != nil, !stop() {
                    let lk = l.map(key), rk = r.map(key)
                    if let lk, rk == nil || lk < rk! {
                        body(l, nil)
                        l = try a.step() ? row(a) : nil
                    } else if let rk, lk == nil || rk < lk! {
                        body(nil, r)
                        r = try b.step() ? row(b) : nil
                    } else {
                        body(l, r)
                        l = try a.step() ? row(a) : nil
                        r = try b.step() ? row(b) : nil
                    }
                }
            }
        }
    }

    /// Rows of `query` on this index and on `other` (a rebuild), side by side by `key`: `note` is told of each row
    /// only one has and each pair that differs, named `noun`.
    func compareSideBySide<Row: Equatable & CustomStringConvertible, Key: Comparable>(
        with other: SearchIndex, query: String, row: (SQLiteStatement) -> Row, key: (Row) -> Key, noun: String,
        stop: () -> Bool, note: (String) -> Void) throws {
        try walkSideBySide(with: other, query: query, row: row, key: key, stop: stop) { ours, rebuilt in
            switch (ours, rebuilt) {
            case (let x?, nil): note("\(noun) \(x.description) is not in a rebuild")
            case (nil, let y?): note("\(noun) \(y.description) is missing (a rebuild has it)")
            case (let x?, let y?): if x != y { note("\(noun) \(x.description) vs rebuilt \(y.description)") }
            case (nil, nil): break
            }
        }
    }

    /// What `compareWithRebuild` compares of a document.
    struct DocumentRow: Equatable, CustomStringConvertible {
        var rowid: Int64
        var values: [String]
        var description: String { "rowid \(rowid) [\(values.joined(separator: ", "))]" }
    }

    func count(_ table: String) throws -> Int {
        try locked { () throws(SearchIndexError) in
            let s = try db.prepare("SELECT count(*) FROM \(table)")
            return try s.step() ? Int(s.int(0)) : 0
        }
    }

    /// Every document's compared columns, in email-id order (`docs` has a unique index on it).
    static let rowsQuery = "SELECT rowid, email_id, account, folder, ifnull(message_id, ''), flags, category, date, size, subject, since FROM docs ORDER BY email_id"

    /// The email id and compared columns of the row `s` stands on (a `rowsQuery` statement).
    static func documentRow(_ s: SQLiteStatement) -> (id: String, row: DocumentRow) {
        (s.text(1), DocumentRow(rowid: s.int(0), values: (2...10).map { s.text(Int32($0)) }))
    }

    /// Every kept version's compared columns, in key order.
    static let pastQuery = "SELECT rowid, since, until, email_id, account, folder, ifnull(message_id, ''), flags, category, date, size, subject FROM docs_past ORDER BY rowid, since"

    /// What `compareWithRebuild` compares of a kept version: its key (rowid, since) and its values.
    struct PastRow: Equatable, CustomStringConvertible {
        var rowid: Int64
        var since: Int64
        var values: [String]
        var key: Key { Key(rowid: rowid, since: since) }
        struct Key: Comparable {
            var rowid: Int64
            var since: Int64
            static func < (a: Key, b: Key) -> Bool { (a.rowid, a.since) < (b.rowid, b.since) }
        }
        var description: String { "rowid \(rowid) since \(since) [\(values.joined(separator: ", "))]" }
    }

    /// The kept version `s` stands on (a `pastQuery` statement).
    static func pastRow(_ s: SQLiteStatement) -> PastRow {
        PastRow(rowid: s.int(0), since: s.int(1), values: (2...11).map { s.text(Int32($0)) })
    }

    /// Every term of the vocabulary kept, in key order.
    static let termsQuery = "SELECT term, col, docs, cnt FROM terms ORDER BY term, col"

    /// What `compareWithRebuild` compares of a term: its key (term, column) and its counts.
    struct TermRow: Equatable, CustomStringConvertible {
        var term: String
        var column: Int64
        var documents: Int64
        var occurrences: Int64
        var key: Key { Key(term: term, column: column) }
        struct Key: Comparable {
            var term: String
            var column: Int64
            static func < (a: Key, b: Key) -> Bool {
                // Byte order, as SQLite's BINARY collation orders the table.
                a.term.utf8.elementsEqual(b.term.utf8) ? a.column < b.column : a.term.utf8.lexicographicallyPrecedes(b.term.utf8)
            }
        }
        var description: String { "\"\(term)\" in column \(column): \(documents) documents, \(occurrences) occurrences" }
    }

    /// The term `s` stands on (a `termsQuery` statement).
    static func termRow(_ s: SQLiteStatement) -> TermRow {
        TermRow(term: s.text(0), column: s.int(1), documents: s.int(2), occurrences: s.int(3))
    }

    /// What `doc_text` keeps of document `rowid`'s text: the sequence of its `EmailReceived` and the digest of
    /// its columns as indexed (`SearchTextDigest`), in hex; empty when it has no row.
    func textRecord(rowid: Int64) throws -> String {
        try locked { () throws(SearchIndexError) in
            let s = try db.prepare("SELECT seq, digest FROM doc_text WHERE rowid = ?")
            try s.bind([.int(rowid)])
            guard try s.step() else { return "" }
            return "\(s.int(0)) " + Hex.lowercase(s.bytes(1))
        }
    }

    /// The text columns document `rowid` was indexed with, derived again from `log` and checked against the
    /// digest kept (`SearchTextDigest`); nil when it has no row or they do not derive as they were.
    func indexedText(rowid: Int64, log: EventLog) throws -> [String]? {
        try locked { () throws(SearchIndexError) in
            let s = try db.prepare("SELECT seq, digest FROM doc_text WHERE rowid = ?")
            try s.bind([.int(rowid)])
            guard try s.step() else { return nil }
            return derivedText(sequence: s.int(0), digest: s.bytes(1), log: log)
        }
    }
}
