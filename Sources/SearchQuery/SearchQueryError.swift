/// A query that cannot be parsed: what is wrong and where (a character offset into the query).
package struct SearchQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The character offset (0-based) of the problem in the query.
    package var offset: Int
    /// What is wrong, in words a user can act on.
    package var message: String

    package init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }

    package var description: String { "at character \(offset + 1): \(message)" }

    /// The query on one line and a caret under the offending character, then the message:
    /// ```
    /// from:alice date:2024-13-01
    ///                 ^ invalid date '2024-13-01' ...
    /// ```
    /// Control characters in the query are shown as spaces so the caret lines up.
    package func pointing(at query: String) -> String {
        let shown = String(query.map { $0.isNewline || $0 == "\t" || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) ? " " : $0 })
        let pad = String(repeating: " ", count: min(offset, shown.count))
        return shown + "\n" + pad + "^ " + message
    }
}
