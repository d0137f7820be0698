/// Bytes as lowercase hex text (`String(format: "%02x")` a byte at a time: ~47 us for a 32-byte hash on Linux's
/// Foundation, in the path of every append that keeps the stats cache).
public enum Hex {
    /// `bytes` as lowercase hex, two digits a byte.
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        // Contiguous bytes (arrays and their slices: every caller) are read through a buffer: this generic function is
        // not specialized for callers in other modules, where walking the sequence costs a witness call a byte.
        if let hex = bytes.withContiguousStorageIfAvailable({ lowercase(buffer: $0) }) { return hex }
        return Array(bytes).withUnsafeBufferPointer { lowercase(buffer: $0) }
    }

    /// The bytes of lowercase hex `text`, or nil when it is not that (odd length, another character) or decodes to
    /// more than `maxBytes`.
    public static func decode(_ text: some StringProtocol, maxBytes: Int) -> [UInt8]? {
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

    /// `bytes` as lowercase hex, written straight into the string's storage.
    private static func lowercase(buffer bytes: UnsafeBufferPointer<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        return digits.withUTF8Buffer { d in
            String(unsafeUninitializedCapacity: bytes.count * 2) { out in
                for (i, b) in bytes.enumerated() {
                    out[2 * i] = d[Int(b >> 4)]
                    out[2 * i + 1] = d[Int(b & 0xF)]
                }
                return bytes.count * 2
            }
        }
    }
}
