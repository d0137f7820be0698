extension SearchIndex {
    /// The `meta` key holding the checkpoint through which `terms` is the vocabulary of `fts` (absent, or another
    /// value than the checkpoint: `terms` is not used, and the next catch-up makes it again).
    static let termsKey = "terms"

    /// A live catch-up of more events than this, and more than a sixteenth of the documents indexed, makes `terms`
    /// again from `fts5vocab` at its end instead of counting each batch's terms: counting costs ~0.1-0.2 ms a new
    /// document (its text tokenized a second time and its terms' rows updated), making it again ~8 us a document
    /// indexed (7.8 s at 1M generated messages).
    static let termsCountedCatchUp: UInt64 = 2_000

    /// Creates `fts5vocab`'s `col` table over `fts` in the connection's temp schema (once). Reading it reads the
    /// postings of every word it lists. Call under `lock`.
    func vocabularyTable() throws(SearchIndexError) {
        guard !madeVocabularyTable else { return }
        try db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.prefix_words USING fts5vocab(main, fts, 'col')")
        madeVocabularyTable = true
    }

    /// True when `terms` is the vocabulary of `fts` at the checkpoint (kept by the writers of this build in the
    /// transaction of each batch; a writer that does not keep it leaves the checkpoint past it). Call under `lock`.
    func termsCurrent() throws(SearchIndexError) -> Bool {
        guard let through = try metaValue(Self.termsKey) else { return false }
        return through == (try metaValue("checkpoint") ?? 0)
    }

    /// Makes `terms` again from FTS5's vocabulary (`fts5vocab`, every posting read once), current through the
    /// checkpoint, in one transaction; nothing when it is current (made by another process meanwhile). At 1M
    /// generated messages: 100,318 rows, ~8 s.
    func recomputeTerms() throws {
        try locked {
            try vocabularyTable()
            let column = SearchSchema.textColumns.enumerated().map { "WHEN '\($0.element)' THEN \($0.offset)" }.joined(separator: " ")
            try db.transaction {
                // Another process may have made it while this one waited for the write lock.
                if try termsCurrent() { return }
                try db.exec("""
                    DELETE FROM terms;
                    INSERT INTO terms(term, col, docs, cnt)
                        SELECT term, CASE col \(column) END, doc, cnt FROM temp.prefix_words WHERE col IN (\(
                            SearchSchema.textColumns.map { "'\($0)'" }.joined(separator: ", ")));
                    INSERT OR REPLACE INTO meta(key, value)
                        SELECT '\(Self.termsKey)', ifnull((SELECT value FROM meta WHERE key = 'checkpoint'), 0);
                    """)
            }
        }
    }

    /// Adds the terms of the documents a batch indexed (`pendingTermDocuments`) to `terms`, current through `last`.
    /// Inside the batch's transaction, under `lock`.
    func addPendingTerms(through last: UInt64) throws {
        guard let documents = pendingTermDocuments else { return }
        pendingTermDocuments = nil
        let counter = try kept(\.termCounter) { try TermCounter() }
        let add = try statement("""
            INSERT INTO terms(term, col, docs, cnt) VALUES(?, ?, ?, ?)
            ON CONFLICT(term, col) DO UPDATE SET docs = docs + excluded.docs, cnt = cnt + excluded.cnt
            """)
        try counter.count(documents) { term, column, docs, occurrences in
            try add.run([.text(term), .int(Int64(column)), .int(docs), .int(occurrences)])
        }
        try statement("INSERT OR REPLACE INTO meta(key, value) VALUES('\(Self.termsKey)', ?)").run([.int(Int64(last))])
    }

    /// Lists the index's words from `from` in byte order, each with its column's name and its occurrences there
    /// (as `fts5vocab`'s `col` table does), from `terms` when `fromTerms`, else from `fts5vocab`; until `body`
    /// returns false. Call under `lock`.
    func listWords(from: String, fromTerms: Bool, _ body: (_ word: String, _ column: String, _ occurrences: Int) -> Bool) throws(SearchIndexError) {
        if fromTerms {
            let s = try statement("SELECT term, col, cnt FROM terms WHERE term >= ? ORDER BY term, col")
            try s.bind([.text(from)])
            defer { s.reset() }
            let columns = SearchSchema.textColumns
            while try s.step() {
                // A column number read from the file is not trusted: one out of range is in no column.
                let c = s.int(1)
                let name = c >= 0 && c < Int64(columns.count) ? columns[Int(c)] : ""
                if !body(s.text(0), name, Int(clamping: s.int(2))) { return }
            }
            return
        }
        try vocabularyTable()
        let s = try statement("SELECT term, col, cnt FROM temp.prefix_words WHERE term >= ?")
        try s.bind([.text(from)])
        defer { s.reset() }
        while try s.step() {
            if !body(s.text(0), s.text(1), Int(clamping: s.int(2))) { return }
        }
    }
}
