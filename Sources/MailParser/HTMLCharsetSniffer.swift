/// Finds a `charset=` declaration in the first bytes of an HTML document
/// (`<meta charset="...">` or `<meta http-equiv ... content="...; charset=...">`).
enum HTMLCharsetSniffer {
    private static let needle: [UInt8] = Array("charset=".utf8)

    /// The declared charset, if one appears in the first 4 KiB.
    static func sniff(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        let end = min(b.count, 4_096)
        var p = 0
        while p + needle.count < end {
            defer { p += 1 }
            if ASCII.lower(b[p]) == 0x63, ByteScan.hasPrefixIgnoringCase(b, at: p, to: end, needle) {
                var i = p + needle.count
                while i < end, b[i] == ASCII.quote || b[i] == ASCII.apostrophe || ASCII.isWSP(b[i]) { i += 1 }
                let start = i
                while i < end, ASCII.isAlpha(b[i]) || ASCII.isDigit(b[i]) || b[i] == ASCII.minus
                        || b[i] == ASCII.underscore || b[i] == ASCII.dot || b[i] == ASCII.colon {
                    i += 1
                }
                if i > start { return String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self) }
            }
        }
        return nil
    }
}
