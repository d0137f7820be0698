/// Builds the short preview text of a message body: quoted lines (`>`),
/// attribution lines before quotes ("On ... wrote:") and the signature
/// (from a `-- ` line on) are dropped, terminal escape sequences removed
/// whole, whitespace is collapsed and the result is cut to at most 100
/// characters (grapheme-safe).
package enum Snippet {
    /// The most characters in a snippet.
    package static let maxCharacters = 100

    /// The snippet of a plain-text body.
    package static func make(fromPlainText text: String) -> String {
        var copy = text
        return copy.withUTF8 { build($0) }
    }

    /// The snippet of an HTML body (converted with ``HTMLText``).
    package static func make(fromHTML html: String) -> String {
        make(fromPlainText: HTMLText.plainText(html, limit: 64 * 1024))
    }

    /// Collected bytes after which the first attempt stops; enough for
    /// 100 characters in almost all text (retried with more if not).
    private static let firstLimit = 192

    private static func build(_ b: UnsafeBufferPointer<UInt8>) -> String {
        var limit = firstLimit
        while true {
            var (out, stoppedEarly) = collect(b, limit: limit)
            let isASCII = out.withUnsafeBufferPointer { ByteScan.isASCII($0, from: 0, to: $0.count) }
            if isASCII && (out.count >= maxCharacters || !stoppedEarly || limit >= b.count) {
                // One byte per character: cut bytes directly.
                if out.count > maxCharacters { out.removeLast(out.count - maxCharacters) }
                while out.last == ASCII.space { out.removeLast() }
                return String(decoding: out, as: UTF8.self)
            }
            let s = String(decoding: out, as: UTF8.self)
            var cut = s.prefix(maxCharacters)
            if stoppedEarly && cut.endIndex == s.endIndex && limit < b.count {
                limit *= 4
                continue
            }
            while let l = cut.last, l.isWhitespace { cut = cut.dropLast() }
            return String(cut)
        }
    }

    /// The kept text with whitespace collapsed, up to about `limit` bytes.
    private static func collect(_ b: UnsafeBufferPointer<UInt8>, limit: Int) -> ([UInt8], Bool) {
        var out = [UInt8]()
        out.reserveCapacity(min(limit, b.count) + 64)
        // Lines held back because they may be an attribution.
        var held: [Range<Int>] = []
        // Where the last emitted line starts in `out` and whether it began
        // with "On " (first half of a wrapped attribution).
        var lastLineOut = 0
        var lastLineStartsWithOn = false
        var stopped = false

        func emit(_ r: Range<Int>) {
            if !out.isEmpty { out.append(ASCII.space) }
            lastLineOut = out.count
            lastLineStartsWithOn = startsWithOn(b, r)
            if !appendCollapsed(b, r, to: &out, limit: limit) { stopped = true }
        }
        func flushHeld() {
            for r in held { emit(r) }
            held.removeAll()
        }

        var pos = 0
        let n = b.count
        while pos < n {
            if stopped || out.count >= limit { return (out, true) }
            let (end, next) = ByteScan.line(in: b, from: pos, to: n)
            defer { pos = next }
            var lo = pos
            var hi = end
            // Signature separator: exactly "-- " or "--".
            if (hi - lo == 3 && b[lo] == ASCII.minus && b[lo + 1] == ASCII.minus && b[lo + 2] == ASCII.space)
                || (hi - lo == 2 && b[lo] == ASCII.minus && b[lo + 1] == ASCII.minus) {
                break
            }
            while lo < hi, ASCII.isWhitespace(b[lo]) { lo += 1 }
            while hi > lo, ASCII.isWhitespace(b[hi - 1]) { hi -= 1 }
            if lo == hi { continue }
            if b[lo] == ASCII.greaterThan {
                // A quote: drop it and any attribution held before it.
                if !held.isEmpty {
                    if !startsWithOn(b, held[0]) && lastLineStartsWithOn {
                        out.removeSubrange(max(0, lastLineOut - 1)..<out.count)
                        lastLineStartsWithOn = false
                    }
                    held.removeAll()
                }
                continue
            }
            if isCutMarker(b, lo..<hi) { break }
            if isAttribution(b, lo..<hi) {
                flushHeld()
                held.append(lo..<hi)
                continue
            }
            if !held.isEmpty { flushHeld() }
            emit(lo..<hi)
        }
        // An attribution at the very end (its quote was removed) is dropped.
        return (out, stopped)
    }

    /// Appends a line with whitespace runs (ASCII and Unicode) collapsed
    /// to one space, invisible characters and escape sequences (``EscapeSequence``) removed.
    /// - Returns: false when it stopped early because `out` reached `limit`.
    private static func appendCollapsed(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, to out: inout [UInt8],
                                        limit: Int) -> Bool {
        var pendingSpace = false
        var i = r.lowerBound
        let end = r.upperBound
        while i < end {
            if out.count >= limit { return false }
            // Bulk-append a run of printable ASCII with single inner spaces.
            let runStart = i
            let runLimit = min(end, i + max(1, limit - out.count))
            while i < runLimit {
                let c = b[i]
                if c > 0x20 && c < 0x7F {
                    i += 1
                } else if c == ASCII.space && i > runStart && i + 1 < runLimit && b[i + 1] > 0x20 && b[i + 1] < 0x7F {
                    i += 1
                } else {
                    break
                }
            }
            if i > runStart {
                if pendingSpace && !out.isEmpty && out.last != ASCII.space { out.append(ASCII.space) }
                pendingSpace = false
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<i]))
                continue
            }
            // An escape sequence goes whole (`ESC [ 31 m`, not just its `ESC`).
            if let e = EscapeSequence.end(in: b, at: i, before: end) {
                i = e
                continue
            }
            let c = b[i]
            if c < 0x80 {
                if ASCII.isWhitespace(c) {
                    pendingSpace = true
                } else if c >= 0x20 && c != 0x7F {
                    if pendingSpace && !out.isEmpty && out.last != ASCII.space { out.append(ASCII.space) }
                    pendingSpace = false
                    out.append(c)
                }
                i += 1
                continue
            }
            let seqEnd = min(end, i + sequenceLength(c))
            switch classify(b, i, seqEnd) {
            case .space:
                pendingSpace = true
            case .invisible:
                break
            case .zeroWidthNonJoiner:
                let nextIsSpace = seqEnd >= end || ASCII.isWhitespace(b[seqEnd])
                    || (seqEnd + 1 < end && b[seqEnd] == 0xC2 && b[seqEnd + 1] == 0xA0)
                if !(pendingSpace || out.isEmpty || out.last == ASCII.space || nextIsSpace) {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<seqEnd]))
                }
            case .visible:
                if pendingSpace && !out.isEmpty && out.last != ASCII.space { out.append(ASCII.space) }
                pendingSpace = false
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<seqEnd]))
            }
            i = seqEnd
        }
        return true
    }

    /// The length of a UTF-8 sequence from its lead byte (1 for invalid).
    @inline(__always)
    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC0...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF7: return 4
        default: return 1
        }
    }

    /// How a character counts in a snippet.
    private enum CharClass { case space, invisible, visible, zeroWidthNonJoiner }

    /// Classifies a non-ASCII UTF-8 sequence: Unicode spaces, invisible
    /// padding characters (zero-width, soft hyphen, BOM...) or visible.
    private static func classify(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> CharClass {
        let n = end - i
        if n == 2 {
            switch (b[i], b[i + 1]) {
            case (0xC2, 0xA0), (0xC2, 0x85): return .space
            case (0xC2, 0xAD), (0xCD, 0x8F), (0xD8, 0x9C): return .invisible
            default: return .visible
            }
        }
        if n == 3 {
            let b0 = b[i], b1 = b[i + 1], b2 = b[i + 2]
            if b0 == 0xE2 && b1 == 0x80 {
                switch b2 {
                case 0x80...0x8A, 0xA8, 0xA9, 0xAF: return .space
                case 0x8B, 0x8E, 0x8F, 0xAA...0xAE: return .invisible
                case 0x8C:
                    // ZWNJ joins nothing next to whitespace (preheader padding).
                    return .zeroWidthNonJoiner
                default: return .visible
                }
            }
            if b0 == 0xE2 && b1 == 0x81 {
                if b2 == 0x9F { return .space }
                if b2 >= 0xA0 && b2 <= 0xA4 { return .invisible }
            }
            if b0 == 0xE3 && b1 == 0x80 && b2 == 0x80 { return .space }
            if b0 == 0xEF && b1 == 0xBB && b2 == 0xBF { return .invisible }
            if b0 == 0xE1 && b1 == 0x9A && b2 == 0x80 { return .space }
            if b0 == 0xE1 && ((b1 == 0xA0 && b2 == 0x8E) || (b1 == 0x85 && (b2 == 0x9F || b2 == 0xA0))
                              || (b1 == 0x9E && (b2 == 0xB4 || b2 == 0xB5))) {
                return .invisible
            }
        }
        return .visible
    }

    private static let on: [UInt8] = Array("on ".utf8)

    /// Whether the line starts with "On " (case-insensitive).
    private static func startsWithOn(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        ByteScan.hasPrefixIgnoringCase(b, at: r.lowerBound, to: r.upperBound, on)
    }

    /// Words found in attribution lines in several languages (lowercase).
    private static let attributionWords: [[UInt8]] = [
        "wrote", "writes", "schrieb", "écrit", "escribió", "escreveu", "scrisse", "skrev", "schreef",
        "napisał", "написал", "пишет", "scritto", "napsal", "írta", "έγραψε", "kirjoitti", "yazdı", "写道", "寫道",
        "のメッセージ", "작성",
    ].map { Array($0.utf8) }

    /// Whether the line looks like "On ... wrote:" / "Am ... schrieb X:":
    /// it ends with a colon and contains an attribution word.
    private static func isAttribution(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard let last = r.last, r.count <= 400 else { return false }
        let endsWithColon = b[last] == ASCII.colon
            || (r.count >= 3 && b[last - 2] == 0xEF && b[last - 1] == 0xBC && b[last] == 0x9A)
        guard endsWithColon else { return false }
        for w in attributionWords {
            var i = r.lowerBound
            while i + w.count <= r.upperBound {
                if ByteScan.hasPrefixIgnoringCase(b, at: i, to: r.upperBound, w) { return true }
                i += 1
            }
        }
        return false
    }

    private static let originalMessage: [UInt8] = Array("-----original message-----".utf8)
    private static let originalMessageSpaced: [UInt8] = Array("----- original message -----".utf8)

    /// Lines after which everything is quoted material (Outlook style).
    private static func isCutMarker(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        if ByteScan.hasPrefixIgnoringCase(b, at: r.lowerBound, to: r.upperBound, originalMessage)
            || ByteScan.hasPrefixIgnoringCase(b, at: r.lowerBound, to: r.upperBound, originalMessageSpaced) {
            return true
        }
        if r.count >= 10 {
            var i = r.lowerBound
            while i < r.upperBound, b[i] == ASCII.underscore { i += 1 }
            if i == r.upperBound { return true }
        }
        return false
    }
}
