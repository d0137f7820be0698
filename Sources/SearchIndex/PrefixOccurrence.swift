import SearchQuery

/// A prefix term where it occurs in a query (`QueryCompiler.prefixTerms`).
struct PrefixOccurrence {
    /// The term.
    var term: TextTerm
    /// True under an odd number of NOTs.
    var negated: Bool
}
