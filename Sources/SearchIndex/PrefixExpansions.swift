import SearchQuery

/// What one query's prefix terms expand to.
struct PrefixExpansions {
    /// The FTS5 expression of each expanded term (`QueryCompiler.expansions`).
    var expressions: [TextTerm: String] = [:]
    /// The words and prefixes in those expressions, together.
    var words = 0
}
