/// What one prefix term expands to (`PrefixWords.expansion`): the FTS5 words and prefixes whose OR matches
/// what the prefix matches, and how many postings the prefix's words have in the term's columns.
struct PrefixExpansion {
    /// Quoted words, and for a word the stemmer would change, a quoted surface form or a shorter prefix
    /// (`"deplo" *`); their OR matches what the prefix matches.
    var parts: [String]
    /// The occurrences of the listed words in the term's columns, as the index counts them (saturating).
    /// FTS5's prefix query merges about this many postings in memory (`SearchIndex.maxMergedPostings`).
    var postings: Int

    /// The OR of `parts`, in parentheses.
    var expression: String { "(" + parts.joined(separator: " OR ") + ")" }
    /// How many words and prefixes the expression holds.
    var words: Int { parts.count }
}
