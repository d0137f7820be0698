import EventLog
import Foundation
import Glibc

extension SearchIndex {
    /// Rebuilds the index from the log up to this index's checkpoint in `scratchFolder` (removed afterwards)
    /// and compares: document and full-text row counts, every document's filter columns, and the full-text
    /// columns of `sample` documents spread over the index. Returns the checkpoint compared and what differs
    /// (at most 50 differences).
    package func compareWithRebuild(log: EventLog, scratchFolder: String, sample: Int = 200) throws -> (sequence: UInt64, differences: [String]) {
        let seq = try checkpoint()
        try? FileManager.default.removeItem(atPath: scratchFolder)
        defer { try? FileManager.default.removeItem(atPath: scratchFolder) }
        try StoreDirectory.makePrivateDirectory(scratchFolder)
        let fresh = try SearchIndex(path: scratchFolder + "/" + SearchIndex.fileName)
        try fresh.catchUp(log: log, through: seq)
        var diffs: [String] = []
        func note(_ s: String) { if diffs.count < 50 { diffs.append(s) } }
        for table in ["docs", "fts"] {
            let a = try count(table), b = try fresh.count(table)
            if a != b { note("\(table): \(a) rows, a rebuild has \(b)") }
        }
        let mine = try rows(), theirs = try fresh.rows()
        for (id, row) in mine where theirs[id] != row {
            note(theirs[id] == nil ? "document \(id) is not in a rebuild" : "document \(id): \(row) vs rebuilt \(theirs[id]!)")
        }
        for id in theirs.keys where mine[id] == nil { note("document \(id) is missing (a rebuild has it)") }
        let ids = mine.values.map(\.rowid).sorted()
        let step = max(1, ids.count / max(1, sample))
        for i in stride(from: 0, to: ids.count, by: step) {
            let a = try text(rowid: ids[i]), b = try fresh.text(rowid: ids[i])
            if a != b { note("full text of row \(ids[i]) differs from a rebuild") }
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

    func rows() throws -> [String: DocumentRow] {
        try locked { () throws(SearchIndexError) in
            let s = try db.prepare("SELECT rowid, email_id, account, folder, ifnull(message_id, ''), flags, category, date, size, subject FROM docs")
            var out: [String: DocumentRow] = [:]
            while try s.step() {
                out[s.text(1)] = DocumentRow(rowid: s.int(0), values: (2...9).map { s.text(Int32($0)) })
            }
            return out
        }
    }

    func text(rowid: Int64) throws -> [String] {
        try locked { () throws(SearchIndexError) in
            let s = try db.prepare("SELECT \(SearchSchema.textColumns.joined(separator: ", ")) FROM fts WHERE rowid = ?")
            try s.bind([.int(rowid)])
            guard try s.step() else { return [] }
            return (0..<SearchSchema.textColumns.count).map { s.text(Int32($0)) }
        }
    }
}
