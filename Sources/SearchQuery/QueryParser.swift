import Foundation

/// Recursive descent over the lexer's tokens.
///
/// ```
/// query   = or-expr EOF
/// or-expr = and-expr *(OR and-expr)
/// and-expr= unary *([AND] unary)
/// unary   = (NOT / "-") unary / primary
/// primary = "(" or-expr ")" / term
/// ```
struct QueryParser {
    let tokens: [QueryLexer.Token]
    let length: Int
    let now: Date
    var pos = 0
    /// Nesting bound (parentheses and NOT chains) so a hostile query cannot exhaust the stack.
    static let maxDepth = 64
    var depth = 0
    /// The most prefix terms (`word*`) in one query. A prefix that expands to more than 2,048 words, or a query
    /// that steps far with its words, is left to FTS5, which merges each such prefix's postings in memory for
    /// every statement (a one-letter prefix at a million messages: ~30-75 MB; eight of them at once took the
    /// process to 255 MB, four under NOT 187 MB). Without a bound, `a* a* ...` a hundred times took 21 s and
    /// 249 MB at 100K messages.
    static let maxPrefixes = 4
    var prefixes = 0

    init(tokens: [QueryLexer.Token], length: Int, now: Date) {
        self.tokens = tokens
        self.length = length
        self.now = now
    }

    var peek: QueryLexer.Token? { pos < tokens.count ? tokens[pos] : nil }

    mutating func parseQuery() throws(SearchQueryError) -> SearchExpr {
        guard !tokens.isEmpty else { throw SearchQueryError(offset: 0, "the query is empty; give words to search for, or * for every message") }
        let e = try orExpr()
        if let t = peek {
            if t.kind == .rparen { throw SearchQueryError(offset: t.offset, "this ')' has no matching '('") }
            throw SearchQueryError(offset: t.offset, "unexpected token")
        }
        return e
    }

    mutating func orExpr() throws(SearchQueryError) -> SearchExpr {
        var parts = [try andExpr()]
        while let t = peek, t.kind == .or {
            pos += 1
            guard let next = peek, next.kind != .rparen, next.kind != .or, next.kind != .and else {
                throw SearchQueryError(offset: t.offset, "OR needs a term on both sides")
            }
            parts.append(try andExpr())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    mutating func andExpr() throws(SearchQueryError) -> SearchExpr {
        var parts: [SearchExpr] = []
        while let t = peek {
            switch t.kind {
            case .or, .rparen:
                if parts.isEmpty {
                    if t.kind == .or { throw SearchQueryError(offset: t.offset, "OR needs a term on both sides") }
                    // A ')' right after its '(' closes an empty group; any other opens none.
                    let opened = pos > 0 && tokens[pos - 1].kind == .lparen
                    throw SearchQueryError(offset: t.offset, opened ? "'()' is empty; put a term inside" : "this ')' has no matching '('")
                }
                return parts.count == 1 ? parts[0] : .and(parts)
            case .and:
                if parts.isEmpty { throw SearchQueryError(offset: t.offset, "AND needs a term on both sides") }
                pos += 1
                guard let n = peek, n.kind != .or, n.kind != .and, n.kind != .rparen else {
                    throw SearchQueryError(offset: t.offset, "AND needs a term on both sides")
                }
            default:
                parts.append(try unary())
            }
        }
        if parts.isEmpty { throw SearchQueryError(offset: length, "a term is missing at the end") }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    mutating func unary() throws(SearchQueryError) -> SearchExpr {
        guard let t = peek else { throw SearchQueryError(offset: length, "a term is missing at the end") }
        if t.kind == .not || t.kind == .minus {
            pos += 1
            guard let n = peek, n.kind != .or, n.kind != .and, n.kind != .rparen else {
                throw SearchQueryError(offset: t.offset, "\(t.kind == .not ? "NOT" : "'-'") needs a term after it")
            }
            return .not(try nested(t.offset) { (p: inout QueryParser) throws(SearchQueryError) in try p.unary() })
        }
        return try primary()
    }

    mutating func nested(_ offset: Int, _ body: (inout QueryParser) throws(SearchQueryError) -> SearchExpr) throws(SearchQueryError) -> SearchExpr {
        depth += 1
        defer { depth -= 1 }
        if depth > QueryParser.maxDepth { throw SearchQueryError(offset: offset, "the query nests deeper than \(QueryParser.maxDepth) levels") }
        return try body(&self)
    }

    mutating func primary() throws(SearchQueryError) -> SearchExpr {
        guard let t = peek else { throw SearchQueryError(offset: length, "a term is missing at the end") }
        pos += 1
        switch t.kind {
        case .lparen:
            if peek == nil { throw SearchQueryError(offset: t.offset, "this '(' is never closed; add a ')'") }
            let e = try nested(t.offset) { (p: inout QueryParser) throws(SearchQueryError) in try p.orExpr() }
            guard let close = peek, close.kind == .rparen else { throw SearchQueryError(offset: t.offset, "this '(' is never closed; add a ')'") }
            _ = close
            pos += 1
            return e
        case .word(let w):
            if w == "*" { return .all }
            return .text(try textTerm(field: nil, w, quoted: false, offset: t.offset))
        case .phrase(let s):
            return .text(try textTerm(field: nil, s, quoted: true, offset: t.offset))
        case .field(let name, let value, let quoted, let vo):
            return try fieldTerm(name, value, quoted: quoted, offset: vo)
        default:
            throw SearchQueryError(offset: t.offset, "unexpected token")
        }
    }

    mutating func textTerm(field: TextField?, _ raw: String, quoted: Bool, offset: Int) throws(SearchQueryError) -> TextTerm {
        var text = raw
        var prefix = false
        if !quoted, text.count > 1, text.hasSuffix("*") {
            prefix = true
            text.removeLast()
            prefixes += 1
            if prefixes > QueryParser.maxPrefixes {
                throw SearchQueryError(offset: offset, "a query takes at most \(QueryParser.maxPrefixes) prefixes (word*); give whole words for the others")
            }
        }
        guard text.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw SearchQueryError(offset: offset, "'\(raw)' has no letters or digits to search for")
        }
        return TextTerm(field: field, text: text, isPhrase: quoted, isPrefix: prefix)
    }

    mutating func fieldTerm(_ name: String, _ value: String, quoted: Bool, offset: Int) throws(SearchQueryError) -> SearchExpr {
        if let f = TextField(rawValue: name) { return .text(try textTerm(field: f, value, quoted: quoted, offset: offset)) }
        switch name {
        case "folder": return .filter(.folder(value))
        case "account": return .filter(.account(value))
        case "id", "mid":
            var v = value
            if v.hasPrefix("<") && v.hasSuffix(">") && v.count >= 2 { v = String(v.dropFirst().dropLast()) }
            return .filter(.messageID(v))
        case "thread": return .filter(.thread(value))
        case "is":
            guard let s = MessageState(rawValue: value.lowercased()) else {
                throw SearchQueryError(offset: offset, "unknown state '\(value)'; is: takes \(MessageState.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .filter(.state(s))
        case "has":
            // Gmail's spelling of `is:attachment`; Gmail's other `has:` terms name things a store does not keep.
            guard value.lowercased() == MessageState.attachment.rawValue else {
                throw SearchQueryError(offset: offset, "unknown '\(value)'; has: takes attachment (is: takes \(MessageState.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .filter(.state(.attachment))
        case "category":
            let v = value.lowercased()
            guard SearchQuery.categories.contains(v) else {
                throw SearchQueryError(offset: offset, "unknown category '\(value)'; category: takes \(SearchQuery.categories.joined(separator: ", "))")
            }
            return .filter(.category(v))
        case "date":
            let (lo, hi) = try QueryValues.dateRange(value, offset: offset, now: now)
            return .filter(.date(lower: lo, upper: hi))
        case "size":
            let (lo, hi) = try QueryValues.sizeRange(value, offset: offset)
            return .filter(.size(lower: lo, upper: hi))
        default:
            throw SearchQueryError(offset: offset, "unknown field '\(name):'")
        }
    }
}
