/// A `Content-Transfer-Encoding` (RFC 2045 section 6).
public enum TransferEncoding: Sendable, Hashable {
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
    public init(headerValue: String?) {
        guard let v = headerValue else { self = .sevenBit; return }
        var token = ASCII.lowercased(v.trimmingASCIIWhitespace())
        if token.utf8.contains(where: { $0 == ASCII.semicolon || $0 == ASCII.openParen || $0 == ASCII.quote || $0 <= 0x20 }) {
            token = HeaderParameters.parse(v).value
        }
        switch token {
        case "", "7bit", "7-bit", "us-ascii", "ascii": self = .sevenBit
        case "8bit", "8-bit", "8bits": self = .eightBit
        case "binary": self = .binary
        case "base64", "base-64", "x-base64": self = .base64
        case "quoted-printable", "quotedprintable", "qp", "x-quoted-printable": self = .quotedPrintable
        default: self = .other(String(token.prefix(64)))
        }
    }

    /// The canonical name (`7bit`, `base64`, ...).
    public var name: String {
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
