import EventModel

/// Bytes as lowercase hex text and back, for cursors that carry view keys or addresses.
enum HexText {
    /// `bytes` as lowercase hex.
    static func encode(_ bytes: [UInt8]) -> String { Hex.lowercase(bytes) }

    /// The bytes of lowercase hex `text`, or nil when it is not that (odd length, another character) or
    /// decodes to more than `maxBytes`.
    static func decode(_ text: some StringProtocol, maxBytes: Int) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0, chars.count / 2 <= maxBytes else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
