/// Parses RFC 5322 address lists (with obsolete forms and real-world
/// breakage) into `MailAddress` values.
enum AddressParser {
    private static let mailto: [UInt8] = Array("mailto:".utf8)

    /// The most addresses kept from one header.
    static let maxAddresses = 10_000

    /// Parses an address-list header value. With `authors` (`From`, `Sender`, `Reply-To`: whoever wrote the
    /// message), a comma after bare words that a mailbox with an angle address follows is part of that mailbox's
    /// display name, as Outlook writes it unquoted: `Smith, John <john@example.com>` is one mailbox named
    /// `Smith, John` (where the list's grammar reads a mailbox `Smith` without a domain, then `John`'s). Recipient
    /// lists keep the grammar's reading: there `root, John <john@example.com>` names a local user `root`.
    static func parseList(_ value: String, authors: Bool = false, warnings: inout WarningList) -> [MailAddress] {
        var copy = value
        return copy.withUTF8 { parse(buffer: $0, authors: authors, warnings: &warnings) }
    }

    private static func parse(buffer b: UnsafeBufferPointer<UInt8>, authors: Bool,
                              warnings: inout WarningList) -> [MailAddress] {
        let n = b.count
        var result: [MailAddress] = []
        var itemStart = 0
        var inGroup = false
        var sawAddressSyntax = false
        // For `authors`: where the words after the last comma kept in a display name begin, and the look-ahead's
        // answer (whether a mailbox with an angle address follows) for the commas before `decidedUntil`.
        var segmentStart = 0
        var namesMailbox = false
        var decidedUntil = 0
        var i = 0

        func emit(_ end: Int, warnings: inout WarningList) {
            if result.count < maxAddresses {
                parseMailbox(b, itemStart..<end, into: &result, warnings: &warnings)
            }
        }

        while i < n {
            let c = b[i]
            switch c {
            case ASCII.quote:
                i = skipQuoted(b, from: i)
                continue
            case ASCII.openParen:
                i = HeaderParameters.skipComment(b, from: i)
                continue
            case ASCII.lessThan:
                sawAddressSyntax = true
                var j = i + 1
                while j < n, b[j] != ASCII.greaterThan {
                    if b[j] == ASCII.quote { j = skipQuoted(b, from: j); continue }
                    j += 1
                }
                i = min(n, j + 1)
                continue
            case ASCII.at:
                sawAddressSyntax = true
            case ASCII.colon:
                if !sawAddressSyntax && !inGroup {
                    inGroup = true
                    itemStart = i + 1
                }
            case ASCII.comma:
                if authors, !sawAddressSyntax, isBareWords(b, max(itemStart, segmentStart)..<i) {
                    // Decided once for every comma up to where the look-ahead stopped (linear in the header).
                    if i >= decidedUntil { (namesMailbox, decidedUntil) = namesNextMailbox(b, after: i) }
                    segmentStart = i + 1
                    // `Smith, John <john@example.com>`: the comma stays in the display name.
                    if namesMailbox { break }
                }
                emit(i, warnings: &warnings)
                itemStart = i + 1
                sawAddressSyntax = false
            case ASCII.semicolon:
                emit(i, warnings: &warnings)
                itemStart = i + 1
                inGroup = false
                sawAddressSyntax = false
            default:
                break
            }
            i += 1
        }
        emit(n, warnings: &warnings)
        return result
    }

    /// Whether `r` holds a word and no address, quoted string, comment or group syntax.
    private static func isBareWords(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var sawWord = false
        for i in r {
            switch b[i] {
            case ASCII.at, ASCII.lessThan, ASCII.greaterThan, ASCII.quote, ASCII.openParen, ASCII.closeParen,
                 ASCII.colon, ASCII.semicolon, ASCII.backslash:
                return false
            case let c where ASCII.isWhitespace(c):
                continue
            default:
                sawWord = true
            }
        }
        return sawWord
    }

    /// Whether the list items after the comma at `comma` are words up to a mailbox with an angle address (`<`
    /// before any `@`, `;` or `:` at the top level), and where that was decided: the same answer holds for every
    /// top-level comma before it.
    private static func namesNextMailbox(_ b: UnsafeBufferPointer<UInt8>, after comma: Int) -> (Bool, Int) {
        var i = comma + 1
        while i < b.count {
            switch b[i] {
            case ASCII.quote:
                i = skipQuoted(b, from: i)
                continue
            case ASCII.openParen:
                i = HeaderParameters.skipComment(b, from: i)
                continue
            case ASCII.lessThan:
                return (true, i)
            case ASCII.at, ASCII.semicolon, ASCII.colon:
                return (false, i)
            default:
                i += 1
            }
        }
        return (false, b.count)
    }

    /// The index after a quoted string starting at `from` (or the end).
    static func skipQuoted(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var i = from + 1
        while i < b.count {
            if b[i] == ASCII.backslash { i += 2; continue }
            if b[i] == ASCII.quote { return i + 1 }
            i += 1
        }
        return b.count
    }

    /// Parses one mailbox (or, when broken, possibly several) from `r`.
    private static func parseMailbox(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, into out: inout [MailAddress],
                                     warnings: inout WarningList) {
        var lo = r.lowerBound
        var hi = r.upperBound
        while lo < hi, ASCII.isWhitespace(b[lo]) { lo += 1 }
        while hi > lo, ASCII.isWhitespace(b[hi - 1]) { hi -= 1 }
        guard lo < hi else { return }

        // Find a top-level '<'.
        var angle: Int?
        var i = lo
        while i < hi {
            let c = b[i]
            if c == ASCII.quote { i = skipQuoted(b, from: i); continue }
            if c == ASCII.openParen { i = HeaderParameters.skipComment(b, from: i); continue }
            if c == ASCII.lessThan { angle = i; break }
            i += 1
        }
        if let a = angle {
            parseAngle(b, lo..<hi, angle: a, into: &out, warnings: &warnings)
        } else {
            parseBare(b, lo..<hi, into: &out, warnings: &warnings)
        }
    }

    /// `phrase <addr> [junk]`.
    private static func parseAngle(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, angle: Int,
                                   into out: inout [MailAddress], warnings: inout WarningList) {
        var malformed = false
        var close: Int?
        var j = angle + 1
        while j < r.upperBound {
            if b[j] == ASCII.quote { j = skipQuoted(b, from: j); continue }
            if b[j] == ASCII.greaterThan { close = j; break }
            j += 1
        }
        let addrEnd = min(close ?? r.upperBound, r.upperBound)
        if close == nil { malformed = true }
        var (email, hadSpace) = cleanAddress(b, (angle + 1)..<addrEnd)
        if hadSpace { malformed = true }
        var (name, comment) = phrase(b, r.lowerBound..<angle)
        if let c = close, c + 1 < r.upperBound {
            let (tail, tailComment) = phrase(b, (c + 1)..<r.upperBound)
            if !tail.isEmpty { malformed = true }
            if comment == nil { comment = tailComment }
        }
        if name.isEmpty, let c = comment { name = c }
        if !isPlausible(email) { malformed = true }
        if email.isEmpty {
            // `Name <>` or `<garbage>`: nothing usable as an address.
            malformed = true
            email = ""
        }
        append(name: name, email: email, malformed: malformed, b, r, into: &out, warnings: &warnings)
    }

    /// A mailbox without angle brackets: `addr`, `addr (Name)`, or broken
    /// forms like `"Name" addr` and `Name addr`.
    private static func parseBare(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>,
                                  into out: inout [MailAddress], warnings: inout WarningList) {
        // Split into words (quoted strings stay inside their word).
        var words: [Range<Int>] = []
        var comment: String?
        var i = r.lowerBound
        var wordStart: Int?
        while i < r.upperBound {
            let c = b[i]
            if c == ASCII.openParen {
                if let s = wordStart { words.append(s..<i); wordStart = nil }
                let end = HeaderParameters.skipComment(b, from: i)
                if comment == nil { comment = commentText(b, i..<end) }
                i = end
                continue
            }
            if ASCII.isWhitespace(c) {
                if let s = wordStart { words.append(s..<i); wordStart = nil }
                i += 1
                continue
            }
            if wordStart == nil { wordStart = i }
            if c == ASCII.quote {
                i = min(skipQuoted(b, from: i), r.upperBound)
                continue
            }
            i += 1
        }
        if let s = wordStart { words.append(s..<r.upperBound) }
        guard !words.isEmpty else { return }

        let emailWords = words.filter { hasUnquotedAt(b, $0) }
        if emailWords.count > 1 {
            // Several addresses without separators.
            for w in emailWords {
                let email = cleanAddress(b, w).email
                append(name: "", email: email, malformed: true, b, w, into: &out, warnings: &warnings)
            }
            return
        }
        if let w = emailWords.first {
            let email = cleanAddress(b, w).email
            var nameBytes = [UInt8]()
            var extra = false
            for other in words where other != w {
                extra = true
                if !nameBytes.isEmpty { nameBytes.append(ASCII.space) }
                nameBytes.append(contentsOf: unquote(b, other))
            }
            var name = decodeName(nameBytes)
            if name.isEmpty, let c = comment { name = c }
            append(name: name, email: email, malformed: extra || !isPlausible(email), b, r,
                   into: &out, warnings: &warnings)
            return
        }
        if words.count == 1 {
            // A lone word: maybe a quoted address or a local name.
            let bytes = unquote(b, words[0])
            let email = String(decoding: bytes, as: UTF8.self)
            append(name: comment ?? "", email: email, malformed: true, b, r, into: &out, warnings: &warnings)
            return
        }
        // Only a name.
        let (name, _) = phrase(b, r)
        append(name: name, email: "", malformed: true, b, r, into: &out, warnings: &warnings)
    }

    /// Appends an address, recording the raw text when malformed.
    private static func append(name: String, email: String, malformed: Bool, _ b: UnsafeBufferPointer<UInt8>,
                               _ r: Range<Int>, into out: inout [MailAddress], warnings: inout WarningList) {
        var raw: String?
        if malformed {
            let rawText = ByteScan.headerString(b, from: r.lowerBound, to: min(r.upperBound, r.lowerBound + 1024))
            raw = rawText
            warnings.add(.malformedAddress, String(rawText.prefix(80)))
        }
        let trimmedName = trimName(name)
        out.append(MailAddress(name: trimmedName.isEmpty ? nil : trimmedName, email: email, raw: raw))
    }

    /// Removes surrounding whitespace and stray single quotes from a name.
    private static func trimName(_ s: String) -> String {
        let t = s.trimmingASCIIWhitespace()
        let u = t.utf8
        if u.count >= 2, u.first == ASCII.apostrophe, u.last == ASCII.apostrophe {
            return String(decoding: u.dropFirst().dropLast(), as: UTF8.self).trimmingASCIIWhitespace()
        }
        return t
    }

    /// The address inside `r` with comments, unquoted whitespace and a
    /// source route (`@a,@b:`) or `mailto:` prefix removed.
    private static func cleanAddress(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> (email: String, hadSpace: Bool) {
        // Fast path: nothing to remove.
        var simple = r.count > 0 && b[r.lowerBound] != ASCII.at && !ByteScan.hasPrefixIgnoringCase(b, at: r.lowerBound, to: r.upperBound, mailto)
        if simple {
            for i in r {
                let c = b[i]
                if c <= 0x20 || c == ASCII.quote || c == ASCII.openParen || c == ASCII.lessThan || c == ASCII.greaterThan {
                    simple = false
                    break
                }
            }
            if simple { return (ByteScan.headerString(b, from: r.lowerBound, to: r.upperBound), false) }
        }
        var out = [UInt8]()
        out.reserveCapacity(r.count)
        var hadSpace = false
        var pendingSpace = false
        var i = r.lowerBound
        while i < r.upperBound {
            let c = b[i]
            if c == ASCII.openParen {
                i = min(HeaderParameters.skipComment(b, from: i), r.upperBound)
                continue
            }
            if ASCII.isWhitespace(c) {
                if !out.isEmpty { pendingSpace = true }
                i += 1
                continue
            }
            if c == ASCII.lessThan || c == ASCII.greaterThan {
                i += 1
                continue
            }
            if pendingSpace { hadSpace = true; pendingSpace = false }
            if c == ASCII.quote {
                let end = min(skipQuoted(b, from: i), r.upperBound)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<end]))
                i = end
                continue
            }
            out.append(c)
            i += 1
        }
        // Obsolete route: @host1,@host2:user@host
        if out.first == ASCII.at, let colon = out.lastIndex(of: ASCII.colon) {
            out.removeSubrange(0...colon)
        }
        let mailto = AddressParser.mailto
        if out.count > mailto.count, ASCII.equalsIgnoringCase(out[0..<mailto.count], mailto) {
            out.removeFirst(mailto.count)
        }
        return (ByteScan.headerString(out), hadSpace)
    }

    /// The display-name text of a phrase (quoted strings unquoted, comments
    /// dropped, whitespace collapsed, RFC 2047 decoded) and the first comment.
    private static func phrase(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> (String, String?) {
        // Fast path: a plain phrase (or one quoted string without escapes)
        // with single spaces and no encoded words.
        var lo = r.lowerBound
        var hi = r.upperBound
        while lo < hi, ASCII.isWhitespace(b[lo]) { lo += 1 }
        while hi > lo, ASCII.isWhitespace(b[hi - 1]) { hi -= 1 }
        if hi - lo >= 2, b[lo] == ASCII.quote, b[hi - 1] == ASCII.quote { lo += 1; hi -= 1 }
        var simple = true
        var k = lo
        while k < hi {
            let c = b[k]
            if c < 0x20 || c == ASCII.quote || c == ASCII.openParen || c == ASCII.backslash
                || (c == ASCII.space && k + 1 < hi && b[k + 1] == ASCII.space)
                || (c == ASCII.equals && k + 1 < hi && b[k + 1] == ASCII.question) {
                simple = false
                break
            }
            k += 1
        }
        if simple { return (ByteScan.headerString(b, from: lo, to: hi), nil) }
        var out = [UInt8]()
        out.reserveCapacity(r.count)
        var comment: String?
        var i = r.lowerBound
        var pendingSpace = false
        while i < r.upperBound {
            let c = b[i]
            if c == ASCII.quote {
                let end = min(skipQuoted(b, from: i), r.upperBound)
                if pendingSpace && !out.isEmpty { out.append(ASCII.space) }
                pendingSpace = false
                out.append(contentsOf: unquote(b, i..<end))
                i = end
                continue
            }
            if c == ASCII.openParen {
                let end = min(HeaderParameters.skipComment(b, from: i), r.upperBound)
                if comment == nil { comment = commentText(b, i..<end) }
                pendingSpace = true
                i = end
                continue
            }
            if ASCII.isWhitespace(c) {
                pendingSpace = true
                i += 1
                continue
            }
            if pendingSpace && !out.isEmpty { out.append(ASCII.space) }
            pendingSpace = false
            out.append(c)
            i += 1
        }
        return (decodeName(out), comment)
    }

    /// Decodes name bytes (UTF-8 or 8-bit, then RFC 2047).
    private static func decodeName(_ bytes: [UInt8]) -> String {
        EncodedWords.decode(ByteScan.headerString(bytes))
    }

    /// The content of a quoted string (escapes resolved); other text as is.
    private static func unquote(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(r.count)
        var i = r.lowerBound
        var inQuote = false
        while i < r.upperBound {
            let c = b[i]
            if c == ASCII.quote { inQuote.toggle(); i += 1; continue }
            if inQuote && c == ASCII.backslash && i + 1 < r.upperBound {
                out.append(b[i + 1])
                i += 2
                continue
            }
            if c == ASCII.cr || c == ASCII.lf { i += 1; continue }
            out.append(c)
            i += 1
        }
        return out
    }

    /// The text of a comment without its parentheses, decoded.
    private static func commentText(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String? {
        var lo = r.lowerBound + 1
        var hi = r.upperBound
        if hi > lo, b[hi - 1] == ASCII.closeParen { hi -= 1 }
        while lo < hi, ASCII.isWhitespace(b[lo]) { lo += 1 }
        while hi > lo, ASCII.isWhitespace(b[hi - 1]) { hi -= 1 }
        guard lo < hi else { return nil }
        var out = [UInt8]()
        var i = lo
        while i < hi {
            if b[i] == ASCII.backslash, i + 1 < hi { out.append(b[i + 1]); i += 2; continue }
            out.append(b[i])
            i += 1
        }
        return decodeName(out)
    }

    /// Whether the word contains an '@' outside quoted strings.
    private static func hasUnquotedAt(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var i = r.lowerBound
        while i < r.upperBound {
            if b[i] == ASCII.quote { i = skipQuoted(b, from: i); continue }
            if b[i] == ASCII.at { return true }
            i += 1
        }
        return false
    }

    /// `local@domain` with both parts non-empty and no spaces.
    private static func isPlausible(_ email: String) -> Bool {
        // The last '@' must have something on both sides.
        email.withBytes { b in
            guard let at = b.lastIndex(of: ASCII.at) else { return false }
            return at > 0 && at < b.count - 1
        }
    }
}
