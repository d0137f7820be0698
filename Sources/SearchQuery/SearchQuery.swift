import Foundation

/// A search query in mailstore's language (close to notmuch's): free words and "phrases", field terms
/// (`from:` `to:` `cc:` `subject:` `body:` `attachment:` `mimetype:` `folder:` `account:` `id:` `thread:`
/// `is:` `has:attachment` (Gmail's spelling of `is:attachment`) `category:` `date:` `size:`), `AND` / `OR` / `NOT` /
/// `-`, parentheses. Words next to each other are ANDed; NOT binds tighter than AND, AND tighter than OR. Pure: no I/O;
/// `now` fixes relative dates.
package struct SearchQuery: Equatable, Sendable {
    /// The field names the lexer recognises before a colon; any other `name:value` is searched as text.
    package static let fields: Set<String> = Set(TextField.allCases.map(\.rawValue))
        .union(["folder", "account", "id", "mid", "thread", "is", "has", "category", "date", "size"])

    /// The category names `category:` accepts.
    package static let categories = ["primary", "social", "promotions", "updates", "forums", "uncategorized"]
    /// The most prefix terms (`word*`) one query takes (`QueryParser.maxPrefixes`).
    package static let maxPrefixes = QueryParser.maxPrefixes

    /// The query as typed.
    package var text: String
    /// Its tree.
    package var expr: SearchExpr

    /// Parses `text`; relative dates (`date:7d..`) count back from `now`.
    package static func parse(_ text: String, now: Date = Date()) throws(SearchQueryError) -> SearchQuery {
        var p = QueryParser(tokens: try QueryLexer.tokens(text), length: text.count, now: now)
        return SearchQuery(text: text, expr: try p.parseQuery())
    }
}
