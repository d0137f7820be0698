/// A small, fast HTML-to-text converter for snippets and search: drops
/// `<script>`, `<style>`, `<head>` (and similar) content and comments,
/// removes tags, turns block tags into line breaks and decodes entities.
/// `<blockquote>` content is replaced by a `>` line so quote handling can
/// treat it like a quoted plain-text block.
package enum HTMLText {
    /// Converts HTML to text, stopping once about `limit` bytes of text
    /// were produced.
    package static func plainText(_ html: String, limit: Int = 1 << 20) -> String {
        var copy = html
        return copy.withUTF8 { convert($0, limit: limit) }
    }

    private static let skipContent: Set<String> = ["script", "style", "head", "title", "noscript", "template",
                                                   "xml", "svg", "object", "iframe"]
    private static let blockTags: Set<String> = [
        "br", "p", "div", "tr", "li", "ul", "ol", "table", "tbody", "thead", "tfoot", "h1", "h2", "h3", "h4",
        "h5", "h6", "hr", "pre", "section", "article", "header", "footer", "center", "address", "form", "dl",
        "dd", "dt", "body", "html", "main", "nav", "aside", "figure", "figcaption", "caption",
    ]
    private static let cellTags: Set<String> = ["td", "th"]

    private static func convert(_ b: UnsafeBufferPointer<UInt8>, limit: Int) -> String {
        let n = b.count
        var out = [UInt8]()
        out.reserveCapacity(min(n, limit) / 2)
        var i = 0
        while i < n, out.count < limit {
            let c = b[i]
            if c == ASCII.lessThan {
                i = tag(b, at: i, out: &out)
                continue
            }
            if c == ASCII.ampersand {
                i = entity(b, at: i, out: &out)
                continue
            }
            out.append(ASCII.isWhitespace(c) ? ASCII.space : c)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Handles markup starting at `at` ('<'); returns the next index.
    private static func tag(_ b: UnsafeBufferPointer<UInt8>, at: Int, out: inout [UInt8]) -> Int {
        let n = b.count
        if ByteScan.hasPrefix(b, at: at, to: n, commentOpen) {
            return indexAfter(commentClose, in: b, from: at + 4) ?? n
        }
        var j = at + 1
        guard j < n else { out.append(ASCII.lessThan); return n }
        if b[j] == ASCII.exclamation || b[j] == ASCII.question {
            return (ByteScan.find(ASCII.greaterThan, in: b, from: j, to: n) ?? (n - 1)) + 1
        }
        var closing = false
        if b[j] == ASCII.slash { closing = true; j += 1 }
        var name = [UInt8]()
        while j < n, ASCII.isAlpha(b[j]) || (ASCII.isDigit(b[j]) && !name.isEmpty), name.count < 16 {
            name.append(ASCII.lower(b[j]))
            j += 1
        }
        guard !name.isEmpty else {
            out.append(ASCII.lessThan)  // "a < b" or "<3": literal text
            return at + 1
        }
        // Find the end of the tag, skipping quoted attribute values.
        var k = j
        var quote: UInt8 = 0
        while k < n {
            let c = b[k]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == ASCII.quote || c == ASCII.apostrophe {
                quote = c
            } else if c == ASCII.greaterThan {
                break
            }
            k += 1
        }
        let after = min(n, k + 1)
        let tagName = String(decoding: name, as: UTF8.self)
        if !closing && skipContent.contains(tagName) {
            let selfClosing = k > at && k < n && b[k - 1] == ASCII.slash
            if selfClosing { return after }
            return skipUntilClose(tagName, in: b, from: after)
        }
        if tagName == "blockquote" && !closing {
            out.append(contentsOf: [ASCII.lf, ASCII.greaterThan, ASCII.lf])
            return skipBlockquote(b, from: after)
        }
        if blockTags.contains(tagName) {
            out.append(ASCII.lf)
        } else if cellTags.contains(tagName) {
            out.append(ASCII.space)
        }
        return after
    }

    private static let commentOpen: [UInt8] = Array("<!--".utf8)
    private static let commentClose: [UInt8] = Array("-->".utf8)

    /// The index after the first occurrence of `pattern` at or after `from`.
    private static func indexAfter(_ pattern: [UInt8], in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let first = pattern.first else { return from }
        var pos = from
        while let p = ByteScan.find(first, in: b, from: pos, to: b.count) {
            if ByteScan.hasPrefix(b, at: p, to: b.count, pattern) { return p + pattern.count }
            pos = p + 1
        }
        return nil
    }

    /// Skips to after `</name ...>` (case-insensitive), or to the end.
    private static func skipUntilClose(_ name: String, in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        let pattern: [UInt8] = [ASCII.lessThan, ASCII.slash] + Array(name.utf8)
        var pos = from
        while let p = ByteScan.find(ASCII.lessThan, in: b, from: pos, to: b.count) {
            if ByteScan.hasPrefixIgnoringCase(b, at: p, to: b.count, pattern) {
                let end = ByteScan.find(ASCII.greaterThan, in: b, from: p, to: b.count) ?? (b.count - 1)
                return end + 1
            }
            pos = p + 1
        }
        return b.count
    }

    private static let blockquoteOpen: [UInt8] = Array("<blockquote".utf8)
    private static let blockquoteClose: [UInt8] = Array("</blockquote".utf8)

    /// Skips a blockquote's content including nested blockquotes.
    private static func skipBlockquote(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        let open = blockquoteOpen
        let close = blockquoteClose
        var depth = 1
        var pos = from
        while let p = ByteScan.find(ASCII.lessThan, in: b, from: pos, to: b.count) {
            if ByteScan.hasPrefixIgnoringCase(b, at: p, to: b.count, open) {
                depth += 1
            } else if ByteScan.hasPrefixIgnoringCase(b, at: p, to: b.count, close) {
                depth -= 1
                if depth == 0 {
                    let end = ByteScan.find(ASCII.greaterThan, in: b, from: p, to: b.count) ?? (b.count - 1)
                    return end + 1
                }
            }
            pos = p + 1
        }
        return b.count
    }

    /// Named entities decoded (the common ones).
    private static let entities: [String: UInt32] = [
        "amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27, "nbsp": 0x20, "copy": 0xA9,
        "reg": 0xAE, "trade": 0x2122, "hellip": 0x2026, "mdash": 0x2014, "ndash": 0x2013, "lsquo": 0x2018,
        "rsquo": 0x2019, "ldquo": 0x201C, "rdquo": 0x201D, "sbquo": 0x201A, "bdquo": 0x201E, "laquo": 0xAB,
        "raquo": 0xBB, "bull": 0x2022, "middot": 0xB7, "euro": 0x20AC, "pound": 0xA3, "yen": 0xA5,
        "cent": 0xA2, "deg": 0xB0, "times": 0xD7, "divide": 0xF7, "zwnj": 0x200C, "zwj": 0x200D,
        "shy": 0xAD, "iexcl": 0xA1, "iquest": 0xBF, "sect": 0xA7, "para": 0xB6, "plusmn": 0xB1,
        "frac12": 0xBD, "frac14": 0xBC, "frac34": 0xBE, "auml": 0xE4, "ouml": 0xF6, "uuml": 0xFC,
        "Auml": 0xC4, "Ouml": 0xD6, "Uuml": 0xDC, "szlig": 0xDF, "eacute": 0xE9, "Eacute": 0xC9,
        "egrave": 0xE8, "agrave": 0xE0, "aacute": 0xE1, "iacute": 0xED, "oacute": 0xF3, "uacute": 0xFA,
        "ccedil": 0xE7, "ntilde": 0xF1, "ecirc": 0xEA, "acirc": 0xE2, "ocirc": 0xF4, "aring": 0xE5,
        "oslash": 0xF8, "aelig": 0xE6, "thinsp": 0x2009, "ensp": 0x2002, "emsp": 0x2003, "rarr": 0x2192,
        "larr": 0x2190, "hairsp": 0x200A,
    ]

    /// Decodes an entity at `at` ('&'); returns the next index.
    private static func entity(_ b: UnsafeBufferPointer<UInt8>, at: Int, out: inout [UInt8]) -> Int {
        let n = b.count
        var j = at + 1
        if j < n, b[j] == ASCII.hash {
            j += 1
            var hex = false
            if j < n, b[j] == 0x78 || b[j] == 0x58 { hex = true; j += 1 }
            var v: UInt32 = 0
            var digits = 0
            while j < n, digits < 8 {
                if hex, let h = ASCII.hexValue(b[j]) {
                    v = v &* 16 &+ UInt32(h)
                } else if !hex, ASCII.isDigit(b[j]) {
                    v = v &* 10 &+ UInt32(b[j] - ASCII.zero)
                } else {
                    break
                }
                digits += 1
                j += 1
            }
            guard digits > 0 else { out.append(ASCII.ampersand); return at + 1 }
            if j < n, b[j] == ASCII.semicolon { j += 1 }
            if v == 0 || v > 0x10FFFF || (v >= 0xD800 && v < 0xE000) { v = 0xFFFD }
            if v == 0xA0 { v = 0x20 }
            Charsets.appendUTF8(v, to: &out)
            return j
        }
        var name = [UInt8]()
        while j < n, ASCII.isAlpha(b[j]) || ASCII.isDigit(b[j]), name.count < 10 {
            name.append(b[j])
            j += 1
        }
        let key = String(decoding: name, as: UTF8.self)
        if !name.isEmpty, let cp = entities[key] ?? entities[ASCII.lowercased(key)] {
            if j < n, b[j] == ASCII.semicolon { j += 1 }
            Charsets.appendUTF8(cp, to: &out)
            return j
        }
        out.append(ASCII.ampersand)
        return at + 1
    }
}
