/// Quoted-printable encoding (RFC 2045 §6.7) of text lines.
enum QuotedPrintable {
    /// The longest encoded line, soft line break included.
    static let maxLineLength = 76

    /// `lines` (without line ends) encoded, each ended by CRLF, long ones split with soft breaks
    /// (`=` CRLF); `=`, controls, bytes above 126 and whitespace at a line's end become `=XX`.
    static func encode(lines: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for line in lines {
            var tokens: [[UInt8]] = []
            for (index, byte) in line.enumerated() {
                let isLast = index == line.count - 1
                let literal = (0x21...0x7E).contains(byte) && byte != 0x3D
                    || (byte == 0x20 || byte == 0x09) && !isLast
                tokens.append(literal ? [byte] : escape(byte))
            }
            var length = 0
            for (index, token) in tokens.enumerated() {
                // Room for a soft break after every token but the last.
                let limit = index == tokens.count - 1 ? maxLineLength : maxLineLength - 1
                if length + token.count > limit {
                    out.append(contentsOf: [0x3D, 0x0D, 0x0A])
                    length = 0
                }
                out.append(contentsOf: token)
                length += token.count
            }
            out.append(contentsOf: [0x0D, 0x0A])
        }
        return out
    }

    /// `=XX` for `byte`, uppercase hex.
    private static func escape(_ byte: UInt8) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        return [0x3D, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
    }
}
