/// Parameters of `Content-Type` and `Content-Disposition` (RFC 2045 §5.1, RFC 2231).
package enum MIMEParameter {
    /// The longest value part of one RFC 2231 section, so a section fits a folded line.
    static let sectionLength = 60

    /// `name="value"` tokens for printable ASCII values without `=?`, else RFC 2231 `name*=utf-8''%XX` ones,
    /// split into numbered sections (`name*0*=`, `name*1*=`) when long. Each token but the
    /// caller's last gets its `;`.
    static func tokens(_ name: String, _ value: String) -> [String] {
        let clean = HeaderWriter.sanitized(value)
        // A value with `=?` goes in RFC 2231 form too: in a quoted one, readers (mailstore's, Thunderbird's) decode
        // what looks like an RFC 2047 encoded word, and the name would read otherwise than it was written.
        if clean.utf8.allSatisfy({ (0x20...0x7E).contains($0) }), clean.utf8.count <= sectionLength, !clean.contains("=?") {
            var escaped = ""
            for character in clean {
                if character == "\\" || character == "\"" { escaped.append("\\") }
                escaped.append(character)
            }
            return ["\(name)=\"\(escaped)\""]
        }
        var sections: [String] = []
        var current = "utf-8''"
        for character in clean {
            let encoded = percentEncoded(character)
            if current.utf8.count + encoded.utf8.count > sectionLength, !current.hasSuffix("''") {
                sections.append(current)
                current = ""
            }
            current += encoded
        }
        sections.append(current)
        if sections.count == 1 { return ["\(name)*=\(sections[0])"] }
        return sections.enumerated().map { "\(name)*\($0.offset)*=\($0.element)" }
    }

    /// `character` as RFC 2231 `attribute-char`s, other bytes as `%XX`.
    private static func percentEncoded(_ character: Character) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for byte in character.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, Character(scalar).isLetter || Character(scalar).isNumber || "!#$&+-.^_`|~".contains(Character(scalar)) {
                out.append(Character(scalar))
            } else {
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// `mimeType` lowercased when it is `type/subtype` of token characters, each at most 127 (RFC 6838 section 4.2: so
    /// the type fits a header line), else `application/octet-stream`.
    static func validType(_ mimeType: String) -> String {
        let parts = mimeType.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, isToken(parts[0], maxBytes: 127), isToken(parts[1], maxBytes: 127) else { return "application/octet-stream" }
        return parts.joined(separator: "/")
    }

    /// The most bytes of a `charset` kept (IANA's longest registered name has 45).
    package static let maxCharsetBytes = 64

    /// `charset` lowercased when it is an RFC 2045 token of at most ``maxCharsetBytes``, else nil: it comes from a
    /// message's header (a forward's original) and is written into the header of the message sent, unquoted.
    package static func validCharset(_ charset: String?) -> String? {
        guard let charset, isToken(Substring(charset), maxBytes: maxCharsetBytes) else { return nil }
        return charset.lowercased()
    }

    /// Whether `text` is an RFC 2045 token (printable ASCII but space and `tspecials`) of 1 to `maxBytes` bytes.
    package static func isToken(_ text: Substring, maxBytes: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= maxBytes
            && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && !"()<>@,;:\\\"/[]?=".unicodeScalars.contains($0) }
    }
}
