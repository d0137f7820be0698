/// The index's words a prefix term matches in its columns (`PrefixWords.listing`), before they are tokenized
/// into an expansion (`PrefixWords.expansion(of:)`).
struct PrefixListing {
    /// The prefix as FTS5 tokenizes it (a term of several tokens: its last token).
    var prefix: String
    /// For a term of several tokens (`text-t*`, `bob@ex*`: a phrase whose last token is a prefix), its text before
    /// the last token (`text-`, `bob@`), which tokenizes to the phrase's other tokens and ends where a token may
    /// start: each expanded word is written after it, as a phrase. Empty for a term of one token.
    var lead = ""
    /// The words in the term's columns, in byte order (empty when not `complete`).
    var words: [String]
    /// Their occurrences in the term's columns (saturating), as far as they were listed.
    var postings: Int
    /// False when the prefix has more words than the listing's bound: `words` is then empty and `postings`
    /// counts those listed only.
    var complete: Bool
}
