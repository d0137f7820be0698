import SearchQuery

/// What one query's prefix terms expand to.
struct PrefixExpansions {
    /// The FTS5 expression of each expanded term (`QueryCompiler.expansions`).
    var expressions: [TextTerm: String] = [:]
    /// The words and prefixes in those expressions, together.
    var words = 0
    /// The expanded terms whose words have too many postings for FTS5's prefix query to merge in memory, those
    /// with the most first (`SearchIndex.maxMergedPostings`): a set of their matches is made a few words at a time, and a
    /// statement run again without the expanded words keeps theirs (`QueryCompiler.heavy`).
    var heavy: [TextTerm: PrefixExpansion] = [:]
}
