/// The index's words a prefix term matches in its columns (`PrefixWords.listing`), before they are tokenized
/// into an expansion (`PrefixWords.expansion(of:)`).
struct PrefixListing {
    /// The prefix as FTS5 tokenizes it.
    var prefix: String
    /// The words in the term's columns, in byte order (empty when not `complete`).
    var words: [String]
    /// Their occurrences in the term's columns (saturating), as far as they were listed.
    var postings: Int
    /// False when the prefix has more words than the listing's bound: `words` is then empty and `postings`
    /// counts those listed only.
    var complete: Bool
}
