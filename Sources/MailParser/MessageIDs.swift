/// Parsing of `Message-ID`, `In-Reply-To` and `References` values,
/// tolerant of missing brackets, comments and surrounding garbage.
package enum MessageIDs {
    /// The longest message id kept (longer ones are garbage).
    static let maxLength = 998

    /// The single id in a `Message-ID` value: the content of the first
    /// `<...>` (whitespace removed) or else the first token; nil if empty.
    package static func parseID(_ value: String) -> String? {
        let ids = extract(value, limit: 1)
        if let first = ids.bracketed.first { return first }
        return ids.bare.first
    }

    /// The ids of an `In-Reply-To` or `References` value, in order and
    /// de-duplicated: the `<...>` msg-ids only (RFC 5322), as notmuch reads them, so that threading
    /// agrees with notmuch; text and bare tokens around them are ignored.
    package static func parseList(_ value: String) -> [String] {
        var list = extract(value, limit: 10_000).bracketed
        if list.count > 1 {
            var seen = Set<String>()
            list = list.filter { seen.insert($0).inserted }
        }
        return list
    }

    /// True when `value` holds an id-like bare token (with an '@') but no `<...>` id: a reference that
    /// `parseList` ignores, worth a warning.
    package static func hasOnlyBareIDs(_ value: String) -> Bool {
        let ids = extract(value, limit: 100)
        return ids.bracketed.isEmpty && ids.bare.contains { $0.contains("@") }
    }

    /// Bracketed ids and bare (unbracketed) tokens, outside comments.
    private static func extract(_ value: String, limit: Int) -> (bracketed: [String], bare: [String]) {
        var copy = value
        return copy.withUTF8 { b in
            var bracketed: [String] = []
            var bare: [String] = []
            let n = b.count
            var i = 0
            while i < n, bracketed.count < limit {
                let c = b[i]
                if c == ASCII.lessThan {
                    // Fast path: `<id>` without inner whitespace.
                    var k = i + 1
                    while k < n, b[k] > 0x20, b[k] != ASCII.greaterThan, b[k] != ASCII.lessThan { k += 1 }
                    if k < n, b[k] == ASCII.greaterThan, k - i - 1 <= maxLength {
                        if k > i + 1 { bracketed.append(ByteScan.headerString(b, from: i + 1, to: k)) }
                        i = k + 1
                        continue
                    }
                    var out = [UInt8]()
                    out.reserveCapacity(64)
                    var j = i + 1
                    while j < n, b[j] != ASCII.greaterThan, b[j] != ASCII.lessThan {
                        if !ASCII.isWhitespace(b[j]) && out.count < maxLength { out.append(b[j]) }
                        j += 1
                    }
                    if !out.isEmpty { bracketed.append(ByteScan.headerString(out)) }
                    i = (j < n && b[j] == ASCII.greaterThan) ? j + 1 : j
                    continue
                }
                if c == ASCII.openParen {
                    i = HeaderParameters.skipComment(b, from: i)
                    continue
                }
                if ASCII.isWhitespace(c) || c == ASCII.comma || c == ASCII.greaterThan {
                    i += 1
                    continue
                }
                var j = i
                while j < n, !ASCII.isWhitespace(b[j]), b[j] != ASCII.lessThan, b[j] != ASCII.openParen,
                      b[j] != ASCII.comma {
                    j += 1
                }
                if bare.count < limit, j - i <= maxLength {
                    var t = ByteScan.headerString(b, from: i, to: j)
                    while t.last == ">" || t.last == ";" { t.removeLast() }
                    if !t.isEmpty { bare.append(t) }
                }
                i = j
            }
            return (bracketed, bare)
        }
    }
}
