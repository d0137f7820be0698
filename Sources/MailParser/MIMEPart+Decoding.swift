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

    /// The body range clamped to the buffer.
    func clampedRange(_ count: Int) -> Range<Int> {
        let lo = min(max(0, bodyRange.lowerBound), count)
        let hi = min(max(lo, bodyRange.upperBound), count)
        return lo..<hi
    }

    /// Removes the transfer encoding.
    /// - Parameter lineFeeds: quoted-printable line breaks become LF.
    func decodeBody(_ buf: UnsafeBufferPointer<UInt8>, lineFeeds: Bool = false, warnings: inout WarningList) -> [UInt8] {
        let r = clampedRange(buf.count)
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
        let r = clampedRange(buf.count)
        var charset = self.charset
        switch transferEncoding {
        case .base64, .quotedPrintable:
            let wide = charset.map { Charsets.isWide($0) } ?? false
            let bytes = decodeBody(buf, lineFeeds: !wide, warnings: &warnings)
            return bytes.withUnsafeBufferPointer { b in
                if charset == nil && contentType == "text/html" { charset = HTMLCharsetSniffer.sniff(b) }
                return Self.decodeText(b, charset: charset, warnings: &warnings)
            }
        default:
            let body = UnsafeBufferPointer(rebasing: buf[r])
            if charset == nil && contentType == "text/html" { charset = HTMLCharsetSniffer.sniff(body) }
            return Self.decodeText(body, charset: charset, warnings: &warnings)
        }
    }

    /// Charset-decodes text bytes with line endings normalised to LF. For
    /// ASCII-compatible charsets this is done on the bytes, before decoding.
    static func decodeText(_ bytes: UnsafeBufferPointer<UInt8>, charset: String?, warnings: inout WarningList) -> String {
        let wide = charset.map { Charsets.isWide($0) } ?? false
        if !wide, let clean = TextNormalizer.normalize(bytes) {
            let (text, warning) = clean.withUnsafeBufferPointer { Charsets.decode(buffer: $0, charset: charset) }
            warnings.add(warning)
            return text
        }
        let (text, warning) = Charsets.decode(buffer: bytes, charset: charset)
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
