extension MIMEPart {
    /// The body with its transfer encoding removed. `message` must be the
    /// same bytes that were given to `MailParser.parse`.
    package func decodedBody(in message: [UInt8]) -> [UInt8] {
        message.withUnsafeBufferPointer { buf in
            var w = WarningList()
            return decodeBody(buf, warnings: &w)
        }
    }

    /// The body with its transfer encoding removed, from the raw buffer
    /// given to `MailParser.parse`.
    package func decodedBody(in message: UnsafeRawBufferPointer) -> [UInt8] {
        let buf = message.bindMemory(to: UInt8.self)
        var w = WarningList()
        return decodeBody(buf, warnings: &w)
    }

    /// The body decoded to text (transfer encoding and charset removed,
    /// line endings normalised to LF).
    package func decodedText(in message: [UInt8]) -> String {
        message.withUnsafeBufferPointer { buf in
            var w = WarningList()
            return decodeText(buf, warnings: &w)
        }
    }

    /// The body decoded to text as ``decodedText(in:)`` gives it, cut to at most `limit` UTF-8 bytes (at a Unicode
    /// scalar's end), and decoded from at most ``TextWindow/first(for:)`` bytes of the encoded body (whole lines of
    /// it), or, `widening`, ``TextWindow/last(for:)`` where the first window gave less than `limit` bytes of text:
    /// what a reader that keeps only `limit` bytes of a part's text needs, without a copy of a 60 MB body decoded
    /// first. The same as `decodedText(in:)` cut to `limit` for every part that fits its window (as every part of
    /// ordinary mail does); for a longer one see ``TextWindow``.
    package func decodedText(in message: [UInt8], limit: Int, widening: Bool = true) -> String {
        message.withUnsafeBufferPointer { buf in
            var w = WarningList()
            return decodeText(buf, limit: limit, widening: widening, warnings: &w).text
        }
    }

    /// The body range clamped to the buffer.
    func clampedRange(_ count: Int) -> Range<Int> {
        let lo = min(max(0, bodyRange.lowerBound), count)
        let hi = min(max(lo, bodyRange.upperBound), count)
        return lo..<hi
    }

    /// Removes the transfer encoding.
    /// - Parameter lineFeeds: quoted-printable line breaks become LF.
    func decodeBody(_ buf: UnsafeBufferPointer<UInt8>, lineFeeds: Bool = false, warnings: inout WarningList) -> [UInt8] {
        decodeBody(buf, range: clampedRange(buf.count), lineFeeds: lineFeeds, warnings: &warnings)
    }

    /// Removes the transfer encoding of `buf[r]`, a range of this part's body.
    private func decodeBody(_ buf: UnsafeBufferPointer<UInt8>, range r: Range<Int>, lineFeeds: Bool,
                            warnings: inout WarningList) -> [UInt8] {
        let body = UnsafeBufferPointer(rebasing: buf[r])
        switch transferEncoding {
        case .base64:
            let (bytes, garbage) = Base64.decode(body)
            if garbage { warnings.add(.badEncoding, "invalid characters in base64 \(contentType) body skipped") }
            return bytes
        case .quotedPrintable:
            let (bytes, bad) = QuotedPrintable.decode(body, lineFeeds: lineFeeds)
            if bad { warnings.add(.badEncoding, "invalid quoted-printable escape in \(contentType) body") }
            return bytes
        default:
            return Array(body)
        }
    }

    /// Removes transfer encoding and charset; normalises line endings and
    /// removes NUL characters.
    func decodeText(_ buf: UnsafeBufferPointer<UInt8>, warnings: inout WarningList) -> String {
        decodeText(buf, range: clampedRange(buf.count), partial: false, warnings: &warnings)
    }

    /// The text of the body (as `decodeText(_:warnings:)`) cut to at most `limit` UTF-8 bytes at a Unicode scalar's
    /// end, decoded from a window of the encoded body (``TextWindow``): the first window, and, `widening`, once the
    /// last (bigger) one when the first gave less than `limit` bytes of text. `cut`: the text is not the whole part's.
    /// `window`: the encoded bytes the text was decoded from (the whole body, or the last window tried). The warnings
    /// are those of the window decoded.
    func decodeText(_ buf: UnsafeBufferPointer<UInt8>, limit: Int, widening: Bool = true,
                    warnings: inout WarningList) -> (text: String, cut: Bool, window: Int) {
        let whole = clampedRange(buf.count)
        var window = TextWindow.first(for: limit)
        let last = widening ? TextWindow.last(for: limit) : window
        while true {
            if whole.count <= window {
                let (text, cut) = Self.cut(decodeText(buf, range: whole, partial: false, warnings: &warnings), to: limit)
                return (text, cut, whole.count)
            }
            var passWarnings = WarningList()
            let text = decodeText(buf, range: whole.lowerBound..<whole.lowerBound + window, partial: true,
                                  warnings: &passWarnings)
            if text.utf8.count >= limit || window >= last {
                warnings.add(contentsOf: passWarnings)
                return (Self.cut(text, to: limit).text, true, window)
            }
            window = last
        }
    }

    /// Decodes `buf[r]` to text. `partial`: `r` is a prefix of the body, decoded up to its last line end
    /// (``TextWindow/wholeLines(_:)``) both before and after the transfer decoding, so no character, escape or
    /// CRLF is cut in two.
    private func decodeText(_ buf: UnsafeBufferPointer<UInt8>, range r: Range<Int>, partial: Bool,
                            warnings: inout WarningList) -> String {
        var charset = self.charset
        let wide = charset.map { Charsets.isWide($0) } ?? false
        var encoded = UnsafeBufferPointer(rebasing: buf[r])
        if partial { encoded = TextWindow.wholeLines(encoded) }
        switch transferEncoding {
        case .base64, .quotedPrintable:
            let bytes = encoded.isEmpty ? [] : decodeBody(buf, range: r.lowerBound..<r.lowerBound + encoded.count,
                                                          lineFeeds: !wide, warnings: &warnings)
            return bytes.withUnsafeBufferPointer { decoded in
                var b = decoded
                if partial { b = wide ? TextWindow.wholeUnits(b) : TextWindow.wholeLines(b) }
                if charset == nil && contentType == "text/html" { charset = HTMLCharsetSniffer.sniff(b) }
                return Self.decodeText(b, charset: charset, prefix: partial, warnings: &warnings)
            }
        default:
            if partial && wide { encoded = TextWindow.wholeUnits(encoded) }
            if charset == nil && contentType == "text/html" { charset = HTMLCharsetSniffer.sniff(encoded) }
            return Self.decodeText(encoded, charset: charset, prefix: partial, warnings: &warnings)
        }
    }

    /// `text` cut to at most `limit` UTF-8 bytes, at the end of a Unicode scalar; `cut`: it was longer.
    static func cut(_ text: String, to limit: Int) -> (text: String, cut: Bool) {
        let utf8 = text.utf8
        guard utf8.count > limit else { return (text, false) }
        var end = utf8.index(utf8.startIndex, offsetBy: max(0, limit))
        // Back to the first byte of the scalar the limit falls in (UTF-8 continuation bytes are 10xxxxxx).
        while end > utf8.startIndex && utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return (String(decoding: utf8[..<end], as: UTF8.self), true)
    }

    /// Charset-decodes text bytes with line endings normalised to LF. For
    /// ASCII-compatible charsets this is done on the bytes, before decoding:
    /// straight into the `String`'s storage where the bytes are already UTF-8
    /// (``Charsets/decodesAsUTF8(_:charset:)``), else into a copy first. `prefix`: the bytes are a window's cut,
    /// so a character of an iconv charset cut at their end is left out (``Charsets/decode(buffer:charset:prefix:)``).
    static func decodeText(_ bytes: UnsafeBufferPointer<UInt8>, charset: String?, prefix: Bool = false,
                           warnings: inout WarningList) -> String {
        let wide = charset.map { Charsets.isWide($0) } ?? false
        if !wide, TextNormalizer.needsWork(bytes) {
            if Charsets.decodesAsUTF8(bytes, charset: charset) {
                // One copy of the text, not two: normalising never lengthens, and keeps valid UTF-8 valid.
                return String(unsafeUninitializedCapacity: bytes.count) { TextNormalizer.normalize(bytes, into: $0) }
            }
            let clean = TextNormalizer.normalize(bytes) ?? Array(bytes)
            let (text, warning) = clean.withUnsafeBufferPointer { Charsets.decode(buffer: $0, charset: charset, prefix: prefix) }
            warnings.add(warning)
            return text
        }
        let (text, warning) = Charsets.decode(buffer: bytes, charset: charset, prefix: prefix)
        warnings.add(warning)
        return wide ? normalizeNewlines(text) : text
    }

    /// CRLF and bare CR become LF; NUL characters are removed.
    static func normalizeNewlines(_ s: String) -> String {
        guard s.containsByte(ASCII.cr) || s.containsByte(ASCII.nul) else { return s }
        var out = [UInt8]()
        out.reserveCapacity(s.utf8.count)
        var prevCR = false
        for b in s.utf8 {
            if b == ASCII.nul { continue }
            if b == ASCII.cr {
                out.append(ASCII.lf)
                prevCR = true
                continue
            }
            if b == ASCII.lf && prevCR {
                prevCR = false
                continue
            }
            prevCR = false
            out.append(b)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The decoded size: estimated for base64, counted for quoted-printable.
    func decodedSize(_ buf: UnsafeBufferPointer<UInt8>) -> Int {
        let r = clampedRange(buf.count)
        switch transferEncoding {
        case .base64: return Base64.estimatedSize(buf, from: r.lowerBound, to: r.upperBound)
        case .quotedPrintable: return QuotedPrintable.decodedSize(buf, from: r.lowerBound, to: r.upperBound)
        default: return r.count
        }
    }
}
