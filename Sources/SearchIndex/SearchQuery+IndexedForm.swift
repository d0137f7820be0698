import Projections
import SearchQuery

extension SearchQuery {
    /// The query with its text terms in the form the documents' text was indexed in (`IndexedText`: composed,
    /// Greek without its marks, ё as е), so a word typed composed finds it written decomposed and the reverse,
    /// and `καλημερα` finds `Καλημέρα`. The text as typed (`text`) and the other terms are unchanged. Each of
    /// `SearchIndex`'s searches takes the query in this form before it expands or compiles it.
    var indexedForm: SearchQuery {
        var out = self
        out.expr = expr.indexedForm
        return out
    }
}

extension SearchExpr {
    /// This expression with every text term's text in the indexed form (`SearchQuery.indexedForm`).
    var indexedForm: SearchExpr {
        switch self {
        case .text(var t):
            t.text = IndexedText.form(t.text)
            return .text(t)
        case .and(let parts): return .and(parts.map(\.indexedForm))
        case .or(let parts): return .or(parts.map(\.indexedForm))
        case .not(let inner): return .not(inner.indexedForm)
        case .all, .filter: return self
        }
    }
}
