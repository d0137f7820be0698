/// A `Content-Transfer-Encoding` (RFC 2045 section 6).
package enum TransferEncoding: Sendable, Hashable {
    /// `7bit` (also the default).
    case sevenBit
    /// `8bit`.
    case eightBit
    /// `binary`.
    case binary
    /// `base64`.
    case base64
    /// `quoted-printable`.
    case quotedPrintable
    /// Anything else (lowercased as written); the body is taken raw.
    case other(String)

    /// Parses a header value; nil or empty means `7bit`.
    package init(headerValue: String?) {
        guard let v = headerValue else { self = .sevenBit; return }
        var token = v.trimmingASCIIWhitespace()
        let complex = token.withBytes { b in
            b.contains { $0 == ASCII.semicolon || $0 == ASCII.openParen || $0 == ASCII.quote || $0 <= 0x20 }
        }
        if complex {
            token = HeaderParameters.parse(v).value
        }
        func isToken(_ s: String) -> Bool { ASCII.equalsIgnoringCase(token, s) }
        switch token.utf8.count {
        case 0: self = .sevenBit
        case 4 where isToken("7bit"), 8 where isToken("us-ascii"), 5 where isToken("ascii"), 5 where isToken("7-bit"):
            self = .sevenBit
        case 4 where isToken("8bit"), 5 where isToken("8-bit"), 5 where isToken("8bits"):
            self = .eightBit
        case 6 where isToken("binary"): self = .binary
        case 6 where isToken("base64"), 7 where isToken("base-64"), 8 where isToken("x-base64"):
            self = .base64
        case 16 where isToken("quoted-printable"), 15 where isToken("quotedprintable"), 2 where isToken("qp"),
             18 where isToken("x-quoted-printable"):
            self = .quotedPrintable
        default: self = .other(String(ASCII.lowercased(token).prefix(64)))
        }
    }

    /// The canonical name (`7bit`, `base64`, ...).
    package var name: String {
        switch self {
        case .sevenBit: return "7bit"
        case .eightBit: return "8bit"
        case .binary: return "binary"
        case .base64: return "base64"
        case .quotedPrintable: return "quoted-printable"
        case .other(let s): return s
        }
    }
}
