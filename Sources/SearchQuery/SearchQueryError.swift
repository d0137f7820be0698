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
    /// A query longer than `width` characters is shown as the `width` around the offending one, an ellipsis for what
    /// is left out on either side (a query may be 4,096 characters and more: it and a line of as many spaces under it
    /// had been printed whole). A character of more scalars than a query may hold in one (``QueryLexer/maxScalarsPerCharacter``)
    /// is shown as U+FFFD: a letter with thousands of combining marks had been compared and printed whole (4 s).
    package func pointing(at query: String, width: Int = 72) -> String {
        let chars = query.map { (c: Character) -> Character in
            if c.unicodeScalars.count > QueryLexer.maxScalarsPerCharacter { return "\u{FFFD}" }
            if let a = c.asciiValue { return a < 0x20 || a == 0x7F ? " " : c }
            return c.isNewline ? " " : c
        }
        let at = min(max(offset, 0), chars.count)
        let end = min(chars.count, max(at - width / 2, 0) + width)
        let start = max(0, end - width)
        let head = start > 0 ? "…" : "", tail = end < chars.count ? "…" : ""
        let pad = String(repeating: " ", count: head.count + at - start)
        return head + String(chars[start..<end]) + tail + "\n" + pad + "^ " + message
    }
}
