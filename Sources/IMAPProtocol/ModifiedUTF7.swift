/// Modified UTF-7, the encoding of IMAP mailbox names (RFC 3501 §5.1.3).
///
/// Printable US-ASCII stands for itself except `&`, written `&-`; any other run of
/// characters is UTF-16BE in base64 (with `,` for `/`, no padding) between `&` and `-`.
package enum ModifiedUTF7 {
    /// `name` in modified UTF-7.
    package static func encode(_ name: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        var pending: [UInt8] = []

        func flush() {
            guard !pending.isEmpty else { return }
            out.append(IMAPByte.ampersand)
            out.append(contentsOf: Base64.encode(pending, alphabet: Base64.imapUTF7, padding: false))
            out.append(IMAPByte.minus)
            pending.removeAll(keepingCapacity: true)
        }

        for scalar in name.unicodeScalars {
            let v = scalar.value
            if v >= 0x20 && v <= 0x7E {
                flush()
                out.append(UInt8(v))
                if v == UInt32(IMAPByte.ampersand) { out.append(IMAPByte.minus) }
            } else {
                for unit in String(scalar).utf16 {
                    pending.append(UInt8(unit >> 8))
                    pending.append(UInt8(unit & 0xFF))
                }
            }
        }
        flush()
        return out
    }

    /// `name` in modified UTF-7, as a String.
    package static func encodeToString(_ name: String) -> String {
        String(decoding: encode(name), as: UTF8.self)
    }

    /// The name `bytes` encode.
    package static func decode(_ bytes: some Collection<UInt8>) throws(ModifiedUTF7Error) -> String {
        let input = Array(bytes)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < input.count {
            let b = input[i]
            guard b >= 0x20 && b <= 0x7E else { throw .invalidByte(b, at: i) }
            if b != IMAPByte.ampersand {
                out.append(Unicode.Scalar(b))
                i += 1
                continue
            }
            let shiftStart = i
            i += 1
            var units: [UInt16] = []
            var acc: UInt32 = 0
            var bits = 0
            var closed = false
            while i < input.count {
                let c = input[i]
                if c == IMAPByte.minus {
                    closed = true
                    i += 1
                    break
                }
                guard let value = Base64.imapUTF7Value(c) else { throw .invalidBase64(c, at: i) }
                acc = (acc << 6) | UInt32(value)
                bits += 6
                if bits >= 16 {
                    bits -= 16
                    units.append(UInt16(truncatingIfNeeded: acc >> UInt32(bits)))
                    acc &= (1 << UInt32(bits)) - 1
                }
                i += 1
            }
            guard closed else { throw .unterminatedShift(at: shiftStart) }
            if i - shiftStart == 2 {
                out.append("&")
                continue
            }
            guard bits < 6, acc == 0 else { throw .invalidPadding(at: i - 1) }
            var iterator = units.makeIterator()
            var utf16 = UTF16()
            decoding: while true {
                switch utf16.decode(&iterator) {
                case .scalarValue(let s): out.append(s)
                case .emptyInput: break decoding
                case .error: throw .invalidUTF16(at: i - 1)
                }
            }
        }
        return String(out)
    }
}
