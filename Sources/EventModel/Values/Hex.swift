/// Bytes as lowercase hex text (`String(format: "%02x")` a byte at a time: ~47 us for a 32-byte hash on Linux's
/// Foundation, in the path of every append that keeps the stats cache).
public enum Hex {
    /// `bytes` as lowercase hex, two digits a byte.
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        digits.withUTF8Buffer { d in
            for b in bytes {
                out.append(d[Int(b >> 4)])
                out.append(d[Int(b & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
