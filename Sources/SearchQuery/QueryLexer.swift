/// Splits a query into tokens with their character offsets.
///
/// ```
/// token   = "(" / ")" / "-" term-start / quoted / field ":" value / bare
/// quoted  = DQUOTE *(not-DQUOTE / DQUOTE DQUOTE) DQUOTE      ; "" inside a phrase is one quote
/// field   = 1*ALPHA                                          ; only the names `SearchQuery.fields` knows
/// value   = quoted / 1*(not-space, not ")")
/// bare    = 1*(not-space, not "(", not ")", not DQUOTE)
/// ```
/// AND, OR and NOT (any case, unquoted) are operators.
struct QueryLexer {
    enum Kind: Equatable {
        case lparen, rparen, minus, and, or, not
        case word(String)
        case phrase(String)
        case field(name: String, value: String, quoted: Bool, valueOffset: Int)
    }

    struct Token: Equatable {
        var kind: Kind
        var offset: Int
    }

    /// The longest query accepted, in characters.
    static let maxLength = 4096
    /// The longest query accepted, in bytes of UTF-8: with ``maxScalarsPerCharacter`` it bounds the lexer's and the
    /// parser's work whatever the characters are.
    static let maxBytes = 16_384
    /// The most Unicode scalars one character (a grapheme cluster: a letter with its combining marks, an emoji
    /// sequence) may hold: UAX #15's stream-safe text has at most 30 marks after a base; the longest emoji sequences
    /// have 10. Characters are compared through Unicode normalization, whose reordering of marks is quadratic in their
    /// number: a 32 KB query of one letter with 16,000 alternating marks (a "character" to the length check) took 19 s
    /// to parse, before the search and its time limit began.
    static let maxScalarsPerCharacter = 32

    static func tokens(_ query: String) throws(SearchQueryError) -> [Token] {
        if query.utf8.count > maxBytes {
            throw SearchQueryError(offset: 0, "the query is longer than \(maxBytes) bytes (\(query.utf8.count)); give fewer or shorter words")
        }
        let chars = Array(query)
        if chars.count > maxLength { throw SearchQueryError(offset: maxLength, "the query is longer than \(maxLength) characters") }
        if let at = chars.firstIndex(where: { $0.unicodeScalars.count > maxScalarsPerCharacter }) {
            throw SearchQueryError(offset: at, "this character carries \(chars[at].unicodeScalars.count - 1) combining marks or joined "
                                   + "parts (at most \(maxScalarsPerCharacter - 1)); remove them")
        }
        var out: [Token] = []
        var i = 0
        func isSpace(_ c: Character) -> Bool { c.isWhitespace }
        func quoted(_ start: Int) throws(SearchQueryError) -> (String, Int) {
            var j = start + 1
            var s = ""
            while j < chars.count {
                if chars[j] == "\"" {
                    if j + 1 < chars.count && chars[j + 1] == "\"" {
                        s.append("\"")
                        j += 2
                        continue
                    }
                    return (s, j + 1)
                }
                s.append(chars[j])
                j += 1
            }
            throw SearchQueryError(offset: start, "this quote is never closed; add a closing \"")
        }
        while i < chars.count {
            let c = chars[i]
            if isSpace(c) {
                i += 1
                continue
            }
            let start = i
            switch c {
            case "(":
                out.append(Token(kind: .lparen, offset: i))
                i += 1
            case ")":
                out.append(Token(kind: .rparen, offset: i))
                i += 1
            case "\"":
                let (s, next) = try quoted(i)
                out.append(Token(kind: .phrase(s), offset: start))
                i = next
            case "-" where i + 1 < chars.count && !isSpace(chars[i + 1]) && chars[i + 1] != ")":
                out.append(Token(kind: .minus, offset: i))
                i += 1
            default:
                // A field name: letters then ':'.
                var j = i
                while j < chars.count, chars[j].isASCII, chars[j].isLetter { j += 1 }
                if j > i, j < chars.count, chars[j] == ":", SearchQuery.fields.contains(String(chars[i..<j]).lowercased()) {
                    let name = String(chars[i..<j]).lowercased()
                    let vstart = j + 1
                    if vstart < chars.count, chars[vstart] == "\"" {
                        let (s, next) = try quoted(vstart)
                        out.append(Token(kind: .field(name: name, value: s, quoted: true, valueOffset: vstart), offset: start))
                        i = next
                        continue
                    }
                    if vstart < chars.count, chars[vstart] == "(" {
                        throw SearchQueryError(offset: vstart, "a field takes one word or a \"quoted phrase\", not parentheses; write (\(name):a OR \(name):b)")
                    }
                    var k = vstart
                    while k < chars.count, !isSpace(chars[k]), chars[k] != ")" { k += 1 }
                    if k == vstart { throw SearchQueryError(offset: j, "'\(name):' needs a value right after the colon") }
                    out.append(Token(kind: .field(name: name, value: String(chars[vstart..<k]), quoted: false, valueOffset: vstart), offset: start))
                    i = k
                    continue
                }
                var k = i
                while k < chars.count, !isSpace(chars[k]), chars[k] != "(", chars[k] != ")", chars[k] != "\"" { k += 1 }
                let w = String(chars[i..<k])
                // (Only a word of 2 or 3 bytes can be an operator: no word is compared whole.)
                switch (2...3).contains(w.utf8.count) ? w.uppercased() : "" {
                case "AND": out.append(Token(kind: .and, offset: start))
                case "OR": out.append(Token(kind: .or, offset: start))
                case "NOT": out.append(Token(kind: .not, offset: start))
                default: out.append(Token(kind: .word(w), offset: start))
                }
                i = k
            }
        }
        return out
    }
}
