extension Charsets {
    /// The iconv name of `charset` when 8-bit header bytes no encoded word declares can be read in it: a charset
    /// whose ASCII bytes are ASCII and whose code unit is a byte, other than UTF-8, US-ASCII, ISO-8859-1 and
    /// Windows-1252 (which the header's own rule tries: UTF-8 when valid, else Windows-1252).
    static func undeclaredHeaderCharset(_ charset: String) -> String? {
        guard case .iconv(let name) = kind(of: charset), codeUnit(name) == 1, isASCIICompatible(name) else { return nil }
        return name
    }

    /// The bytes ``decodeWindows1252(_:)`` read as `text`, or nil when `text` has a character it never gives.
    static func encodeWindows1252(_ text: String) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 || (0xA0...0xFF).contains(v) {
                out.append(UInt8(v))
            } else if let i = cp1252High.firstIndex(of: v) {
                out.append(UInt8(0x80 + i))
            } else {
                return nil
            }
        }
        return out
    }
}
