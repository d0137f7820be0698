import SearchQuery

/// What one query's prefix terms expand to.
struct PrefixExpansions {
    /// The FTS5 expression of each expanded term (`QueryCompiler.expansions`).
    var expressions: [TextTerm: String] = [:]
    /// The words and prefixes in those expressions, together.
    var words = 0
    /// What stepping a row costs those expressions, in words of a one-token prefix: a phrase's word counts
    /// `SearchIndex.phraseWordSteps` (each phrase of an OR steps its own iterator of the phrase's other tokens and
    /// checks their positions: `category:updates re-m*` at 1M, 1,539 phrases after `re`, ~0.65 ms a row against ~6 us
    /// for `m*`'s 1,541 words). The budget of a statement with expanded prefixes is in these.
    var stepWords = 0
    /// The expanded terms whose words have too many postings for FTS5's prefix query to merge in memory, those
    /// with the most first (`SearchIndex.maxMergedPostings`): a set of their matches is made a few words at a time, and a
    /// statement run again without the expanded words keeps theirs (`QueryCompiler.heavy`).
    var heavy: [TextTerm: PrefixExpansion] = [:]
}
