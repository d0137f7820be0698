/// RFC 2047 encoded-word decoding (`=?charset?B?...?=` and
/// `=?charset?Q?...?=`), tolerant of what is seen in real mail.
package enum EncodedWords {
    /// Decodes every well-formed encoded word in `s`. Whitespace between
    /// adjacent encoded words is dropped, and adjacent words in the same
    /// charset (however its name is spelled) are joined before charset conversion (so a multi-byte
    /// character split across two words survives). Malformed words are left
    /// as they are. Text without `=?` is returned unchanged.
    package static func decode(_ s: String) -> String {
        guard s.withBytes({ containsMarker($0) }) else { return s }
        var copy = s
        return copy.withUTF8 { decode(buffer: $0) }
    }

    /// Whether the bytes contain `=?`.
    private static func containsMarker(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var pos = 0
        while let eq = ByteScan.find(ASCII.equals, in: b, from: pos, to: b.count) {
            if eq + 1 < b.count, b[eq + 1] == ASCII.question { return true }
            pos = eq + 1
        }
        return false
    }

    /// The longest encoded text accepted in one word (RFC 2047 allows 75
    /// characters for the whole word; real mail is sometimes longer).
    private static let maxEncodedText = 4_096

    /// A parsed encoded word.
    private struct Word {
        var charset: String
        var bytes: [UInt8]
        var end: Int
    }

    /// Decodes encoded words in a byte buffer of (UTF-8 or 8-bit) text.
    static func decode(buffer b: UnsafeBufferPointer<UInt8>) -> String {
        let n = b.count
        var out = [UInt8]()
        out.reserveCapacity(n)
        var pendingCharset: String?
        var pendingBytes: [UInt8] = []
        var pendingWS: Range<Int>?
        var lastWasEncoded = false

        func flushEncoded() {
            guard let cs = pendingCharset else { return }
            let (text, _) = pendingBytes.withUnsafeBufferPointer { Charsets.decode(buffer: $0, charset: cs) }
            out.append(contentsOf: text.utf8)
            pendingCharset = nil
            pendingBytes.removeAll(keepingCapacity: true)
        }

        var i = 0
        while i < n {
            let c = b[i]
            if c == ASCII.equals, i + 1 < n, b[i + 1] == ASCII.question, let w = parseWord(b, at: i) {
                if !lastWasEncoded, let ws = pendingWS {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[ws]))
                }
                pendingWS = nil
                if let cs = pendingCharset, cs != w.charset, Charsets.kind(of: cs) != Charsets.kind(of: w.charset) {
                    flushEncoded()
                }
                pendingCharset = w.charset
                pendingBytes.append(contentsOf: w.bytes)
                lastWasEncoded = true
                i = w.end
                continue
            }
            if ASCII.isWhitespace(c) {
                var j = i + 1
                while j < n, ASCII.isWhitespace(b[j]) { j += 1 }
                if lastWasEncoded {
                    pendingWS = i..<j
                } else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<j]))
                }
                i = j
                continue
            }
            if lastWasEncoded {
                flushEncoded()
                if let ws = pendingWS { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[ws])) }
                pendingWS = nil
                lastWasEncoded = false
            }
            out.append(c)
            i += 1
        }
        flushEncoded()
        if let ws = pendingWS { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[ws])) }
        return ByteScan.headerString(out)
    }

    /// Parses an encoded word starting at `at` (which holds `=?`).
    private static func parseWord(_ b: UnsafeBufferPointer<UInt8>, at: Int) -> Word? {
        let n = b.count
        var i = at + 2
        let csStart = i
        while i < n, b[i] != ASCII.question {
            if ASCII.isWhitespace(b[i]) || i - csStart > 64 { return nil }
            i += 1
        }
        guard i < n, i > csStart else { return nil }
        let charset = String(decoding: UnsafeBufferPointer(rebasing: b[csStart..<i]), as: UTF8.self)
        i += 1
        guard i + 1 < n, b[i + 1] == ASCII.question else { return nil }
        let enc = ASCII.lower(b[i])
        guard enc == 0x62 || enc == 0x71 else { return nil }  // b or q
        i += 2
        let textStart = i
        // The encoded text runs to the next "?=" on the same line.
        var textEnd: Int?
        while i + 1 < n {
            let ch = b[i]
            // Longer than any real encoded word: give up (keeps hostile
            // input linear).
            if ch == ASCII.cr || ch == ASCII.lf || i - textStart > maxEncodedText { return nil }
            if ch == ASCII.question && b[i + 1] == ASCII.equals { textEnd = i; break }
            i += 1
        }
        guard let end = textEnd else { return nil }
        let text = UnsafeBufferPointer(rebasing: b[textStart..<end])
        let bytes: [UInt8]
        if enc == 0x62 {
            for ch in text where !(ASCII.isAlpha(ch) || ASCII.isDigit(ch) || ch == ASCII.plus || ch == ASCII.slash
                                   || ch == ASCII.equals || ch == ASCII.minus || ch == ASCII.underscore
                                   || ASCII.isWSP(ch)) {
                return nil
            }
            bytes = Base64.decode(text).bytes
        } else {
            bytes = QuotedPrintable.decodeQ(text)
        }
        return Word(charset: charset, bytes: bytes, end: end + 2)
    }
}
