/// Counts the terms FTS5 makes of documents' text columns, per column, as `fts5vocab`'s `col` table counts them in
/// the index: for each (term, column), the documents it is in and its occurrences there.
///
/// Why: the index keeps its vocabulary in `terms` (`SearchSchema`) so a prefix's words are read from a few rows
/// instead of from `fts5vocab`, which reads every posting of every word it lists. A live batch's documents are
/// tokenized here a second time (in a scratch in-memory FTS5 table with the index's tokenizer, so the terms are
/// exactly the index's) and their counts added to `terms` in the batch's transaction.
final class TermCounter {
    /// A scratch in-memory database with an FTS5 table tokenized and laid out like the index's `fts`.
    private let scratch: SQLiteConnection
    private let insert: SQLiteStatement
    private let read: SQLiteStatement
    /// Each text column's position in `SearchSchema.textColumns`, by name.
    private let columnIndex: [String: Int]

    init() throws(SearchIndexError) {
        scratch = try SQLiteConnection(path: ":memory:", create: false)
        let columns = SearchSchema.textColumns
        try scratch.exec("""
            CREATE VIRTUAL TABLE batch USING fts5(\(columns.joined(separator: ", ")), content = '', columnsize = 0,
                tokenize = \(SearchSchema.tokenizer));
            CREATE VIRTUAL TABLE batch_terms USING fts5vocab(batch, 'col');
            """)
        insert = try scratch.prepare(SearchSchema.textInsert(into: "batch"))
        read = try scratch.prepare("SELECT term, col, doc, cnt FROM batch_terms")
        columnIndex = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($0.element, $0.offset) })
    }

    /// Calls `body` with each term of `documents` (each its text columns in `SearchSchema.textColumns` order), the
    /// column's position, the documents it is in there and its occurrences there. Holds the batch's postings in
    /// memory (a live batch: at most `SearchIndex.batchSize` documents).
    func count(_ documents: [[String]], _ body: (_ term: String, _ column: Int, _ documents: Int64, _ occurrences: Int64) throws -> Void) throws {
        guard !documents.isEmpty else { return }
        try scratch.exec("INSERT INTO batch(batch) VALUES('delete-all')")
        try scratch.transaction {
            for (i, columns) in documents.enumerated() {
                try insert.run([.int(Int64(i + 1))] + columns.map { .text($0) })
            }
        }
        try read.bind([])
        defer { read.reset() }
        while try read.step() {
            guard let column = columnIndex[read.text(1)] else { continue }
            try body(read.text(0), column, read.int(2), read.int(3))
        }
    }
}
