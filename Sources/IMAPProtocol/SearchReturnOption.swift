/// What an extended `SEARCH ... RETURN (...)` reports (RFC 4731, RFC 5182).
package enum SearchReturnOption: String, Hashable, Sendable, CaseIterable {
    /// `MIN`: the lowest match.
    case min = "MIN"
    /// `MAX`: the highest match.
    case max = "MAX"
    /// `ALL`: every match, as a sequence set.
    case all = "ALL"
    /// `COUNT`: the number of matches.
    case count = "COUNT"
    /// `SAVE` (RFC 5182): keep the result for `$`.
    case save = "SAVE"
}
