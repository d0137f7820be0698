import EventModel

/// Bytes as lowercase hex text and back, for cursors that carry view keys or addresses.
enum HexText {
    /// `bytes` as lowercase hex.
    static func encode(_ bytes: [UInt8]) -> String { Hex.lowercase(bytes) }

    /// The bytes of lowercase hex `text`, or nil when it is not that (odd length, another character) or
    /// decodes to more than `maxBytes`.
    static func decode(_ text: some StringProtocol, maxBytes: Int) -> [UInt8]? { Hex.decode(text, maxBytes: maxBytes) }
}
