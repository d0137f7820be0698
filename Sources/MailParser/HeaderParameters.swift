/// Parses MIME structured header values with parameters
/// (`Content-Type`, `Content-Disposition`): RFC 2045 syntax, RFC 2231
/// continuations and charsets, and RFC 2047 encoded words inside quoted
/// `name`/`filename` values as seen in the wild.
package enum HeaderParameters {
    /// The largest number of RFC 2231 sections joined for one parameter.
    static let maxSections = 1_000

    /// Splits `value` into its lowercased main token (for example
    /// `"text/plain"`) and its parameters, keyed by lowercased name.
    package static func parse(_ value: String) -> (value: String, parameters: [String: String]) {
        var copy = value
        return copy.withUTF8 { parse(buffer: $0) }
    }

    /// One `name=value` pair before RFC 2231 joining.
    private struct RawParam {
        var name: String
        var section: Int?
        var extended: Bool
        var value: Value
    }

    /// A parameter value: a range of the input, or unescaped bytes.
    private enum Value {
        case range(Range<Int>)
        case bytes([UInt8])

        func bytes(_ b: UnsafeBufferPointer<UInt8>) -> ArraySlice<UInt8> {
            switch self {
            case .range(let r): return ArraySlice(UnsafeBufferPointer(rebasing: b[r]))
            case .bytes(let a): return a[...]
            }
        }

        func string(_ b: UnsafeBufferPointer<UInt8>) -> String {
            switch self {
            case .range(let r): return ByteScan.headerString(b, from: r.lowerBound, to: r.upperBound)
            case .bytes(let a): return ByteScan.headerString(a)
            }
        }
    }

    private static func parse(buffer b: UnsafeBufferPointer<UInt8>) -> (value: String, parameters: [String: String]) {
        let n = b.count
        var i = 0
        // Main value up to the first ';' outside quotes, comments removed.
        var main = [UInt8]()
        main.reserveCapacity(32)
        var mainDone = false
        while i < n, b[i] != ASCII.semicolon {
            let c = b[i]
            if c == ASCII.openParen {
                i = skipComment(b, from: i)
                continue
            }
            if c == ASCII.quote {
                i += 1
                continue
            }
            if ASCII.isWhitespace(c) {
                if !main.isEmpty { mainDone = true }
            } else if !mainDone {
                main.append(ASCII.lower(c))
            }
            i += 1
        }
        var raws: [RawParam] = []
        raws.reserveCapacity(4)
        while i < n {
            // Skip separators.
            while i < n, b[i] == ASCII.semicolon || ASCII.isWhitespace(b[i]) { i += 1 }
            if i >= n { break }
            if b[i] == ASCII.openParen { i = skipComment(b, from: i); continue }
            // Parameter name.
            let nameStart = i
            while i < n, b[i] != ASCII.equals, b[i] != ASCII.semicolon, !ASCII.isWhitespace(b[i]) { i += 1 }
            var nameEnd = i
            while i < n, ASCII.isWhitespace(b[i]) { i += 1 }
            guard i < n, b[i] == ASCII.equals else {
                // A bare word without '=': skip to the next ';'.
                while i < n, b[i] != ASCII.semicolon { i += 1 }
                continue
            }
            i += 1
            while i < n, ASCII.isWhitespace(b[i]) { i += 1 }
            // Value: quoted string or token (tolerating spaces) up to ';'.
            var value = Value.range(i..<i)
            if i < n, b[i] == ASCII.quote {
                i += 1
                let vStart = i
                var escaped: [UInt8]?
                while i < n, b[i] != ASCII.quote {
                    let c = b[i]
                    if c == ASCII.backslash || c == ASCII.cr || c == ASCII.lf {
                        if escaped == nil { escaped = Array(UnsafeBufferPointer(rebasing: b[vStart..<i])) }
                        if c == ASCII.backslash, i + 1 < n {
                            // Keep backslashes before characters that do not
                            // need escaping (Windows paths in filenames).
                            let nx = b[i + 1]
                            if nx == ASCII.quote || nx == ASCII.backslash {
                                escaped?.append(nx)
                                i += 2
                                continue
                            }
                            escaped?.append(c)
                        }
                        i += 1
                        continue
                    }
                    escaped?.append(c)
                    i += 1
                }
                value = escaped.map { Value.bytes($0) } ?? .range(vStart..<i)
                if i < n { i += 1 }
                // Tolerate garbage after the closing quote up to ';' unless a
                // new `name=` starts (missing ';').
                // Only positions after whitespace are checked, so each run
                // is scanned once.
                var afterSpace = true
                while i < n, b[i] != ASCII.semicolon {
                    let c = b[i]
                    if ASCII.isWhitespace(c) {
                        afterSpace = true
                    } else {
                        if afterSpace && looksLikeParamStart(b, at: i) { break }
                        afterSpace = false
                    }
                    i += 1
                }
            } else {
                let vStart = i
                while i < n, b[i] != ASCII.semicolon {
                    if b[i] == ASCII.quote { break }
                    i += 1
                }
                var vEnd = i
                while vEnd > vStart, ASCII.isWhitespace(b[vEnd - 1]) { vEnd -= 1 }
                value = .range(vStart..<vEnd)
                if i < n, b[i] == ASCII.quote {
                    while i < n, b[i] != ASCII.semicolon { i += 1 }
                }
            }
            while nameEnd > nameStart, ASCII.isWhitespace(b[nameEnd - 1]) { nameEnd -= 1 }
            guard nameEnd > nameStart else { continue }
            raws.append(splitName(b, nameStart, nameEnd, value: value))
        }
        return (String(decoding: main, as: UTF8.self), join(raws, b))
    }

    /// Whether `b[at...]` looks like `token=`.
    private static func looksLikeParamStart(_ b: UnsafeBufferPointer<UInt8>, at: Int) -> Bool {
        var i = at
        while i < b.count {
            let c = b[i]
            if c == ASCII.equals { return i > at }
            if !(ASCII.isAlpha(c) || ASCII.isDigit(c) || c == ASCII.minus || c == ASCII.star || c == ASCII.underscore) {
                return false
            }
            i += 1
        }
        return false
    }

    /// Skips a (possibly nested) comment starting at `from` (an open paren).
    static func skipComment(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var depth = 0
        var i = from
        while i < b.count {
            let c = b[i]
            if c == ASCII.backslash { i += 2; continue }
            if c == ASCII.openParen { depth += 1 }
            if c == ASCII.closeParen {
                depth -= 1
                if depth == 0 { return i + 1 }
            }
            i += 1
        }
        return b.count
    }

    /// Splits `name*3*` into base name, section and extended flag.
    private static func splitName(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, value: Value) -> RawParam {
        var nameBytes = [UInt8]()
        nameBytes.reserveCapacity(end - start)
        var i = start
        while i < end, b[i] != ASCII.star {
            nameBytes.append(ASCII.lower(b[i]))
            i += 1
        }
        var section: Int?
        var extended = false
        if i < end {
            i += 1  // '*'
            var num = 0
            var digits = 0
            while i < end, ASCII.isDigit(b[i]) {
                if digits < 6 { num = num * 10 + Int(b[i] - ASCII.zero) }
                digits += 1
                i += 1
            }
            if digits > 0 {
                section = num
                if i < end, b[i] == ASCII.star { extended = true }
            } else {
                extended = true
            }
        }
        return RawParam(name: String(decoding: nameBytes, as: UTF8.self), section: section, extended: extended,
                        value: value)
    }

    /// Joins RFC 2231 sections and decodes values.
    private static func join(_ raws: [RawParam], _ b: UnsafeBufferPointer<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        if raws.isEmpty { return result }
        if !raws.contains(where: { $0.section != nil || $0.extended }) {
            for r in raws where result[r.name] == nil {
                let text = r.value.string(b)
                result[r.name] = (r.name == "name" || r.name == "filename") ? EncodedWords.decode(text) : text
            }
            return result
        }
        var plain: [String: Value] = [:]
        var groups: [String: [RawParam]] = [:]
        var order: [String] = []
        for r in raws {
            if r.section == nil && !r.extended {
                if plain[r.name] == nil { plain[r.name] = r.value }
                continue
            }
            if groups[r.name] == nil { order.append(r.name) }
            if let s = r.section, s > maxSections { continue }
            groups[r.name, default: []].append(r)
        }
        for (name, value) in plain {
            let text = value.string(b)
            if name == "name" || name == "filename" {
                result[name] = EncodedWords.decode(text)
            } else {
                result[name] = text
            }
        }
        for name in order {
            guard var parts = groups[name] else { continue }
            parts.sort { ($0.section ?? 0) < ($1.section ?? 0) }
            var bytes = [UInt8]()
            var charset: String?
            var seen = Set<Int>()
            for (idx, p) in parts.enumerated() {
                let sec = p.section ?? 0
                if seen.contains(sec) { continue }
                seen.insert(sec)
                var v = p.value.bytes(b)
                if p.extended && idx == 0 {
                    // charset'language'value
                    if let q1 = v.firstIndex(of: ASCII.apostrophe) {
                        let rest = v[(q1 + 1)...]
                        if let q2 = rest.firstIndex(of: ASCII.apostrophe) {
                            let cs = String(decoding: v[v.startIndex..<q1], as: UTF8.self)
                            if !cs.isEmpty { charset = cs }
                            v = v[(q2 + 1)...]
                        }
                    }
                }
                if p.extended {
                    percentDecode(v, into: &bytes)
                } else {
                    bytes.append(contentsOf: v)
                }
            }
            let text: String
            if let cs = charset {
                text = Charsets.decode(bytes, charset: cs).0
            } else {
                text = ByteScan.headerString(bytes)
            }
            result[name] = text
        }
        return result
    }

    /// Appends the percent-decoded bytes of `v` (invalid escapes kept).
    private static func percentDecode(_ v: ArraySlice<UInt8>, into out: inout [UInt8]) {
        var i = v.startIndex
        while i < v.endIndex {
            let c = v[i]
            if c == ASCII.percent, i + 2 < v.endIndex, let h = ASCII.hexValue(v[i + 1]), let l = ASCII.hexValue(v[i + 2]) {
                out.append(h << 4 | l)
                i += 3
                continue
            }
            out.append(c)
            i += 1
        }
    }
}
