import Foundation

extension MessageComposer {
    /// The longest line SMTP carries (RFC 5321 §4.5.3.1.6), line end excluded.
    static let maxLineBytes = 998

    /// `text/plain; charset=utf-8`: 7bit when ASCII, 8bit when allowed, else quoted-printable (also
    /// whenever a line is longer than ``maxLineBytes`` or the text holds a NUL, which 7bit and 8bit data never do:
    /// RFC 2045 §2.7-2.8), or base64 when quoted-printable would be half as long again (text mostly beyond ASCII, as
    /// Cyrillic or CJK: three bytes a byte in quoted-printable, four for three in base64).
    static func textPart(_ text: String, allowsEightBit: Bool) -> MIMEBodyPart {
        let lines = self.lines(of: text).map { Array($0.utf8) }
        // Lines are split at CR and LF (each line end goes as CRLF), so what else 7bit and 8bit need is lines within
        // the bound and no NUL: a raw NUL went out, Cyrus refused the Sent copy and Dovecot changed the byte.
        let fitsLines = lines.allSatisfy { $0.count <= maxLineBytes && !$0.contains(0) }
        let isASCII = lines.allSatisfy { $0.allSatisfy { $0 < 0x80 } }
        let encoding: String
        var body: [UInt8] = []
        if fitsLines && (isASCII || allowsEightBit) {
            encoding = isASCII ? "7bit" : "8bit"
            for line in lines { body += line + [0x0D, 0x0A] }
        } else {
            let quoted = QuotedPrintable.encode(lines: lines)
            let base64 = Base64Lines.body(lines.flatMap { $0 + [0x0D, 0x0A] })
            // Quoted-printable stays readable; base64 only where it saves a third or more.
            let useBase64 = quoted.count * 2 > base64.count * 3
            encoding = useBase64 ? "base64" : "quoted-printable"
            body = useBase64 ? base64 : quoted
        }
        return MIMEBodyPart(headers: [("Content-Type", ["text/plain;", "charset=utf-8"]),
                                      ("Content-Transfer-Encoding", [encoding])], body: body)
    }

    /// An attachment part: its type with `charset` (a `text/*` one's, when valid) and `name`, `Content-Disposition:
    /// attachment` with `filename` (RFC 2231 when not ASCII), base64 in 76-character lines. An attached message (`message/*`) goes 7bit,
    /// or 8bit when allowed, its line ends CRLF: RFC 2046 §5.2.1 allows no other encoding (Python read the base64 text
    /// as its header). One that neither can carry (a NUL, a line over ``maxLineBytes``, 8-bit bytes where 8bit may not
    /// go) goes as `application/octet-stream` in base64, byte for byte, as does a `multipart/*` one (its boundary
    /// parameter is not kept).
    static func attachmentPart(_ attachment: DraftAttachment, allowsEightBit: Bool) -> MIMEBodyPart {
        var type = MIMEParameter.validType(attachment.mimeType)
        var encoding = "base64"
        var body: [UInt8]?
        if type.hasPrefix("message/") {
            if let message = messageLines(attachment.data), allowsEightBit || !message.eightBit {
                (encoding, body) = (message.eightBit ? "8bit" : "7bit", message.bytes)
            } else {
                type = "application/octet-stream"
            }
        } else if type.hasPrefix("multipart/") {
            type = "application/octet-stream"
        }
        // A token, unquoted (`charset=iso-8859-1`), as readers expect it; the bytes go as they are, in base64.
        let charset = type.hasPrefix("text/") ? MIMEParameter.validCharset(attachment.charset) : nil
        let typeTokens = charset.map { [type + ";", "charset=" + $0] } ?? [type]
        return MIMEBodyPart(headers: [
            ("Content-Type", parameterTokens(typeTokens, [("name", attachment.filename)])),
            ("Content-Disposition", parameterTokens(["attachment"], [("filename", attachment.filename)])),
            ("Content-Transfer-Encoding", [encoding]),
        ], body: body ?? Base64Lines.body(attachment.data))
    }

    /// `data` with CRLF line ends (a lone CR or LF made one) and whether it has bytes beyond ASCII, or nil when 7bit
    /// and 8bit cannot carry it: a NUL or a line longer than ``maxLineBytes`` (RFC 2045 §2.7-2.8).
    static func messageLines(_ data: [UInt8]) -> (bytes: [UInt8], eightBit: Bool)? {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + data.count / 64 + 2)
        var lineLength = 0
        var eightBit = false
        var index = 0
        while index < data.count {
            let byte = data[index]
            index += 1
            switch byte {
            case 0: return nil
            case 0x0D, 0x0A:
                if byte == 0x0D, index < data.count, data[index] == 0x0A { index += 1 }
                out += [0x0D, 0x0A]
                lineLength = 0
            default:
                lineLength += 1
                guard lineLength <= maxLineBytes else { return nil }
                eightBit = eightBit || byte >= 0x80
                out.append(byte)
            }
        }
        return (out, eightBit)
    }

    /// `value; p1=...; p2=...` as tokens, `value` given as its own (`text/plain;`, `charset=...`).
    static func parameterTokens(_ value: [String], _ parameters: [(String, String)]) -> [String] {
        var tokens = value
        for (name, parameterValue) in parameters {
            tokens[tokens.count - 1] += ";"
            let encoded = MIMEParameter.tokens(name, parameterValue)
            tokens += encoded.enumerated().map { $0.offset < encoded.count - 1 ? $0.element + ";" : $0.element }
        }
        return tokens
    }

    /// The parts between `--boundary` lines, closed by `--boundary--`.
    static func multipartBody(_ parts: [MIMEBodyPart], boundary: String) -> [UInt8] {
        var body = Array("This is a multi-part message in MIME format.\r\n".utf8)
        for part in parts {
            body += Array("\r\n--\(boundary)\r\n".utf8)
            var header = HeaderWriter()
            part.headers.forEach { header.add($0.name, tokens: $0.tokens) }
            body += header.bytes + [0x0D, 0x0A] + part.body
        }
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        return body
    }

    /// A random boundary that none of `parts` contains.
    static func uniqueBoundary(for parts: [MIMEBodyPart], using generator: inout some RandomNumberGenerator) -> String {
        while true {
            let boundary = "=_mailstore_" + randomHex(16, using: &generator)
            let pattern = Array(boundary.utf8)
            if !parts.contains(where: { contains($0.body, pattern) }) { return boundary }
        }
    }

    /// The lines of `text`, split at CRLF, CR or LF; a final line end ends the last line.
    static func lines(of text: String) -> [Substring] {
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Whether `haystack` contains `needle`.
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return haystack.withUnsafeBufferPointer { h in
            (0...(h.count - needle.count)).contains { start in
                h[start] == needle[0] && needle.indices.allSatisfy { h[start + $0] == needle[$0] }
            }
        }
    }
}
