/// Base64 encoding (RFC 4648) for SASL and, with the `,` alphabet, modified UTF-7.
enum Base64 {
    /// The standard alphabet.
    static let standard: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// The alphabet of modified UTF-7 (RFC 3501 §5.1.3): `,` replaces `/`.
    static let imapUTF7: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,".utf8)

    /// `bytes` in base64 with the given alphabet, `=`-padded when `padding` is true.
    static func encode(_ bytes: some Collection<UInt8>, alphabet: [UInt8] = standard, padding: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var acc: UInt32 = 0
        var bits = 0
        for b in bytes {
            acc = (acc << 8) | UInt32(b)
            bits += 8
            while bits >= 6 {
                bits -= 6
                out.append(alphabet[Int((acc >> UInt32(bits)) & 0x3F)])
            }
            acc &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            out.append(alphabet[Int((acc << UInt32(6 - bits)) & 0x3F)])
        }
        if padding {
            while out.count % 4 != 0 { out.append(0x3D) }
        }
        return out
    }

    /// The 6-bit value of `b` in the modified UTF-7 alphabet, or nil.
    static func imapUTF7Value(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x41...0x5A: return b - 0x41
        case 0x61...0x7A: return b - 0x61 + 26
        case 0x30...0x39: return b - 0x30 + 52
        case 0x2B: return 62
        case 0x2C: return 63
        default: return nil
        }
    }
}
