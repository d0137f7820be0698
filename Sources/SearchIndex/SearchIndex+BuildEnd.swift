import Foundation

extension SearchIndex {
    /// The stages of a build's end, each taken up by the next build where the last one stopped: FTS5's merge of the
    /// index's segments into one, then each of the query indexes (`SearchSchema.queryIndexDefinitions`). The
    /// vocabulary (`terms`) is made last when it is expected to fit, else left to the live index's next catch-up
    /// with time for it (searches list words from `fts5vocab` meanwhile), so it is no stage.
    package static var buildEndStages: Int { 1 + SearchSchema.queryIndexDefinitions.count }

    /// The most FTS5 leaf pages (4,050 bytes of postings each, FTS5's default `pgsz`) one step of a build's end merge
    /// writes (`INSERT INTO fts(fts, rank) VALUES('merge', -N)`: every segment taken as on one level and merged N
    /// pages further, what is merged trimmed from its inputs; FTS5's documented way to optimize in steps, each
    /// statement leaving a whole index). About 8 MB written a step.
    static let endMergeStepPages = 2_000

    /// What one merge step (`endMergeStepPages`) is expected to take, in nanoseconds: FTS5's `optimize` of a 1M-message
    /// index took ~12 s; at ~4 KB a page of an index of a few GB, ~25 us a page, 50 ms a step, taken as 250 ms for
    /// a loaded machine and the step's reads of each segment's next pages (not measured at 1M yet).
    static let endMergeStepNanos: UInt64 = 250_000_000

    /// What making one query index is expected to cost a document indexed, in nanoseconds: the nine took ~6 s at 1M
    /// generated messages (docs/benchmarks-history.md), ~0.7 us each a document, taken as 1.5 (a loaded machine;
    /// `docs_past` holds more rows than `docs`).
    static let queryIndexNanosPerDocument: UInt64 = 1_500

    /// The `meta` key set once a build's end has begun: a build that goes on with it folds no more events (they
    /// would add segments to the merge under way, which FTS5 then begins again over all of them); the index, once
    /// put in place, folds them as a live index does. Left in the live file, where nothing reads it.
    static let endBegunKey = "build_end_begun"

    /// The `meta` key set once a build's merge of its segments into one is done (a build kept aside whole, its
    /// put in place waiting past its deadline, is not merged again). Left in the live file, where nothing reads it.
    static let mergedKey = "build_merged"

    /// Whether this build's end has begun (`endBegunKey`).
    func endBegun() throws -> Bool {
        try locked { () throws(SearchIndexError) in try metaValue(Self.endBegunKey) != nil }
    }

    /// Goes on with this build's end (after its catch-up) as far as `deadline` allows (nil: none, all of it): merge
    /// steps while one is expected to fit, then each query index not made yet that is expected to fit, then the
    /// vocabulary when it is expected to fit. Each step is one statement, begun only when expected to end before
    /// `deadline` and never interrupted (the file has no journal: a statement cut midway could leave it torn), and
    /// what it did stays in the file for the next build. Returns the stages done (`buildEndStages`: the file can be
    /// put in place).
    func goOnWithEnd(before deadline: UInt64?) throws -> Int {
        let documents = UInt64(try documentCount())
        func fits(_ nanos: UInt64) -> Bool {
            guard let deadline else { return true }
            return SearchIndex.now() + nanos + SearchIndex.testEndStepDelayNanos <= deadline
        }
        var merged = try locked { () throws(SearchIndexError) in try metaValue(Self.mergedKey) != nil }
        while !merged {
            guard fits(Self.endMergeStepNanos) else { return 0 }
            SearchIndex.testEndStepDelay()
            merged = try locked { () throws(SearchIndexError) in
                try db.exec("INSERT OR IGNORE INTO meta(key, value) VALUES('\(Self.endBegunKey)', 1)")
                let before = db.totalChanges
                try db.exec("INSERT INTO fts(fts, rank) VALUES('merge', -\(SearchIndex.endMergeStepPages))")
                // FTS5: the change count grown by less than 2 means the merge found nothing left to merge.
                guard db.totalChanges - before < 2 else { return false }
                try db.exec("INSERT OR REPLACE INTO meta(key, value) VALUES('\(Self.mergedKey)', 1)")
                return true
            }
        }
        var done = 1
        for definition in SearchSchema.queryIndexDefinitions {
            if try !hasIndex(definition.name) {
                guard fits(documents * Self.queryIndexNanosPerDocument) else { return done }
                SearchIndex.testEndStepDelay()
                try makeQueryIndexes(SearchSchema.createIndex(definition))
            }
            done += 1
        }
        // After the merge: `fts5vocab` then reads one segment. Made when it fits, else by the live index later.
        if fits(documents * Self.recomputeNanosPerDocument) {
            SearchIndex.testEndStepDelay()
            try recomputeTerms()
        }
        return done
    }

    /// Whether the file has the index `name`.
    private func hasIndex(_ name: String) throws -> Bool {
        try locked { () throws(SearchIndexError) in
            let s = try statement("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?")
            try s.bind([.text(name)])
            defer { s.reset() }
            return try s.step()
        }
    }
}
