import EventLog
import Foundation
import Glibc

extension SearchIndex {
    /// Rebuilds the index from the log up to this index's checkpoint in `scratchFolder` (removed afterwards)
    /// and compares: the row counts of documents and of indexed texts (`doc_text`), every document's filter
    /// columns, and the text columns of `sample` documents spread over the index, as indexed. Returns the checkpoint compared and what differs
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
        for table in ["docs", "doc_text"] {
            let a = try count(table), b = try fresh.count(table)
            if a != b { note("\(table): \(a) rows, a rebuild has \(b)") }
        }
        // Both indexes walked in email-id order side by side (memory bounded whatever their size); every
        // `step`-th document's full text is compared too.
        let step = max(1, (try count("docs")) / max(1, sample))
        var sampled: [Int64] = []
        try locked {
            try fresh.locked {
                let a = try db.prepare(SearchIndex.rowsQuery), b = try fresh.db.prepare(SearchIndex.rowsQuery)
                var l = try a.step() ? SearchIndex.documentRow(a) : nil, r = try b.step() ? SearchIndex.documentRow(b) : nil
                var seen = 0
                while l != nil || r != nil, diffs.count < 50 {
                    if let x = l, r == nil || x.id < r!.id {
                        note("document \(x.id) is not in a rebuild")
                        l = try a.step() ? SearchIndex.documentRow(a) : nil
                    } else if let y = r, l == nil || y.id < l!.id {
                        note("document \(y.id) is missing (a rebuild has it)")
                        r = try b.step() ? SearchIndex.documentRow(b) : nil
                    } else if let x = l, let y = r {
                        if x.row != y.row { note("document \(x.id): \(x.row) vs rebuilt \(y.row)") }
                        if seen % step == 0 { sampled.append(x.row.rowid) }
                        seen += 1
                        l = try a.step() ? SearchIndex.documentRow(a) : nil
                        r = try b.step() ? SearchIndex.documentRow(b) : nil
                    }
                }
            }
        }
        for rowid in sampled {
            let a = try textRecord(rowid: rowid), b = try fresh.textRecord(rowid: rowid)
            if a != b { note("full text of row \(rowid) differs from a rebuild") }
        }
        return (seq, diffs)
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
    static let rowsQuery = "SELECT rowid, email_id, account, folder, ifnull(message_id, ''), flags, category, date, size, subject FROM docs ORDER BY email_id"

    /// The email id and compared columns of the row `s` stands on (a `rowsQuery` statement).
    static func documentRow(_ s: SQLiteStatement) -> (id: String, row: DocumentRow) {
        (s.text(1), DocumentRow(rowid: s.int(0), values: (2...9).map { s.text(Int32($0)) }))
    }

    /// What `doc_text` keeps of document `rowid`'s text: the sequence of its `EmailReceived` and the digest of
    /// its columns as indexed (`SearchTextDigest`), in hex; empty when it has no row.
    func textRecord(rowid: Int64) throws -> String {
        try locked { () throws(SearchIndexError) in
            let s = try db.prepare("SELECT seq, digest FROM doc_text WHERE rowid = ?")
            try s.bind([.int(rowid)])
            guard try s.step() else { return "" }
            return "\(s.int(0)) " + s.bytes(1).map { String(format: "%02x", $0) }.joined()
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
