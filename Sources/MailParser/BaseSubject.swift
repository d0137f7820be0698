/// The subject a thread shows: reply and forward prefixes in many languages removed, leading `[tags]` kept.
package enum BaseSubject {
    /// Reply prefixes in many languages (lowercase; compared case-insensitively): `Re:`, `Aw:`,
    /// `Sv:`, `Antw:`, `Réf:`, `Odp:`, `Rif:`, `Vs:`, `Ynt:`, `Res:`, `回复:` ...
    package static let replyPrefixes: [String] = [
        "re", "aw", "sv", "antw", "réf", "ref", "odp", "rif", "vs", "ynt", "res", "回复", "回覆", "答复", "返信",
    ]
    /// Forward prefixes in many languages (lowercase; compared case-insensitively): `Fwd:`, `Fw:`,
    /// `WG:`, `TR:`, `VB:`, `Enc:`, `RV:`, `转发:` ...
    package static let forwardPrefixes: [String] = ["fwd", "fw", "wg", "tr", "vb", "enc", "rv", "转发", "轉寄", "轉發", "転送"]
    /// Reply and forward prefixes.
    private static let prefixes = replyPrefixes + forwardPrefixes

    /// Strips (repeatedly) `Re:`, `RE:`, `Fwd:`, `Fw:`, `Aw:`, `Sv:`, `Antw:`, `Réf:`, `回复:`, `转发:` and
    /// similar, with counters such as `Re[2]:` or `Re(2):` and full-width colons, at the start or after leading
    /// `[tags]`, and a trailing `(fwd)`; collapses and trims whitespace. The tags stay (`[list] Re: x` is
    /// `[list] x`): a gateway's `[EXTERNAL]` or `[SPAM]` is a warning to the reader, and `[PATCH 1/2]` says which
    /// (RFC 5256's base subject, for sorting, drops them; the thread list shows them, as Gmail and notmuch do).
    package static func of(_ subject: String) -> String {
        var s = collapse(subject)
        var changed = true
        var rounds = 0
        while changed && rounds < 100 {
            changed = false
            rounds += 1
            if s.utf8.last == UInt8(ascii: ")"), s.hasSuffix("(fwd)") || s.hasSuffix("(FWD)") || s.hasSuffix("(Fwd)") {
                s = collapse(String(s.dropLast(5)))
                changed = true
            }
            if let rest = stripPrefix(s) {
                s = rest
                changed = true
            } else if let (tags, rest) = leadingTags(s), var stripped = stripPrefix(rest) {
                // A tag a gateway put on every message (`[EXTERNAL] RE: [EXTERNAL] hi`) is shown once.
                while let (again, after) = leadingTags(stripped), tagList(again).allSatisfy(tagList(tags).contains) {
                    stripped = after
                }
                s = stripped.isEmpty ? tags : tags + " " + stripped
                changed = true
            }
        }
        return s
    }

    /// `subject` without the leading `prefixes` (each followed by an optional counter such as `[2]`
    /// and a colon, repeatedly), whitespace collapsed and trimmed: `"RE: Aw: x"` → `"x"` for
    /// ``replyPrefixes``.
    package static func removingPrefixes(_ subject: String, among prefixes: [String]) -> String {
        var s = collapse(subject)
        var rounds = 0
        while rounds < 100, let rest = stripPrefix(s, among: prefixes) {
            s = rest
            rounds += 1
        }
        return s
    }

    /// Collapses whitespace runs to single spaces and trims.
    private static func collapse(_ s: String) -> String {
        if isCollapsedASCII(s) { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        var pending = false
        for ch in s {
            if ch.isWhitespace {
                pending = true
                continue
            }
            if pending && !out.isEmpty { out.append(" ") }
            pending = false
            out.append(ch)
        }
        return out
    }

    /// True when `s` is printable ASCII with single spaces between words and none at either end: what
    /// `collapse` returns unchanged (the common subject, checked byte by byte instead of per Character).
    private static func isCollapsedASCII(_ s: String) -> Bool {
        var afterSpace = true
        for b in s.utf8 {
            if b == 0x20 {
                if afterSpace { return false }
                afterSpace = true
            } else if b < 0x20 || b >= 0x7F {
                return false
            } else {
                afterSpace = false
            }
        }
        return !afterSpace || s.isEmpty
    }

    /// The tags of a run of leading tags (`[a] [b]` -> `[a]`, `[b]`), compared case-insensitively.
    private static func tagList(_ tags: String) -> [String] {
        tags.split(separator: "]").map { $0.drop(while: { $0 == " " }).lowercased() + "]" }
    }

    /// The leading `[tags]` of `s` (one or more, spaces between them) and what follows them, or nil when `s` does not
    /// start with a tag or is nothing but tags. Bounded by `s`'s length: each tag ends at its first `]`.
    private static func leadingTags(_ s: String) -> (tags: String, rest: String)? {
        guard s.first == "[" else { return nil }
        var end = s.startIndex
        while end < s.endIndex, s[end] == "[", let close = s[end...].firstIndex(of: "]") {
            end = s.index(after: close)
            while end < s.endIndex, s[end] == " " { end = s.index(after: end) }
        }
        guard end > s.startIndex, end < s.endIndex else { return nil }
        return (collapse(String(s[..<end])), String(s[end...]))
    }

    /// False when `s` surely starts with none of `prefixes` followed by its colon, judged from its first bytes alone:
    /// it starts with a run of ASCII letters that is not 2-4 long (every ASCII prefix is 2-4 letters, and a prefix
    /// matches only the whole run: a letter after it is not a colon, a counter or a space), or the run is followed by
    /// an ASCII byte that is none of a space, a tab, `:`, `[` and `(`. True otherwise (a non-ASCII byte among them,
    /// say): `stripPrefix` then compares the prefixes one by one. Most subjects ("Quarterly report", "Re: x" aside)
    /// end here: comparing the 26 prefixes with `hasPrefix` was 3% of a threads view's rebuild (callgrind, 2026-11-29).
    private static func mayStartWithPrefix(_ s: String) -> Bool {
        var letters = 0
        for b in s.utf8 {
            if b >= 0x80 { return true }
            if (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) {
                letters += 1
                if letters > 4 { return false }
                continue
            }
            guard (2...4).contains(letters) else { return false }
            return b == 0x20 || b == 0x09 || b == 0x3A || b == 0x5B || b == 0x28
        }
        return false
    }

    /// Removes one leading prefix of `prefixes` (reply and forward ones by default) with optional counter.
    private static func stripPrefix(_ s: String, among prefixes: [String] = prefixes) -> String? {
        // Most subjects start with an ASCII letter no prefix starts with: no lowercasing then.
        if let b = s.utf8.first, b < 0x80, !prefixes.contains(where: { $0.utf8.first == b | 0x20 }) { return nil }
        if prefixes == BaseSubject.prefixes, !mayStartWithPrefix(s) { return nil }
        // The longest prefix is 4 characters: lowercase only the start of the subject (ASCII by hand, into a
        // small string that needs no allocation).
        let head = s.utf8.prefix(8)
        let lower = head.allSatisfy({ $0 < 0x80 })
            ? String(unsafeUninitializedCapacity: head.count) { buf in
                for (i, b) in head.enumerated() { buf[i] = (0x41...0x5A).contains(b) ? b | 0x20 : b }
                return head.count
            }
            : s.prefix(8).lowercased()
        for p in prefixes where lower.hasPrefix(p) {
            var rest = s.dropFirst(p.count)
            while let f = rest.first, f == " " || f == "\t" { rest = rest.dropFirst() }
            // Counter: [2] or (2).
            if let f = rest.first, f == "[" || f == "(" {
                let close: Character = f == "[" ? "]" : ")"
                let inner = rest.dropFirst()
                if let end = inner.firstIndex(of: close), !inner[..<end].isEmpty,
                   inner[..<end].allSatisfy({ $0.isASCII && $0.isNumber }) {
                    rest = inner[inner.index(after: end)...]
                }
            }
            while let f = rest.first, f == " " || f == "\t" { rest = rest.dropFirst() }
            if let f = rest.first, f == ":" || f == "：" {
                return collapse(String(rest.dropFirst()))
            }
        }
        return nil
    }
}
