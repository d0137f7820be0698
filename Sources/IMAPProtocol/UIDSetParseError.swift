/// Why text could not be read as a sequence set (`1:5,7,9:*`).
package enum UIDSetParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There was nothing to read.
    case empty
    /// A byte other than a digit, `:`, `,` or `*` where a number or separator belongs.
    case unexpectedByte(UInt8, at: Int)
    /// The text ends where a number or `*` belongs.
    case unexpectedEnd
    /// A number is `0`, which no UID or sequence number can be.
    case zero(at: Int)
    /// A number does not fit in 32 bits.
    case overflow(at: Int)

    /// A sentence saying what failed, for logs and error messages.
    package var description: String {
        switch self {
        case .empty: return "empty sequence set"
        case .unexpectedByte(let b, let at): return "unexpected byte 0x\(String(b, radix: 16)) at offset \(at) in sequence set"
        case .unexpectedEnd: return "sequence set ends where a number or * belongs"
        case .zero(let at): return "sequence set holds 0 at offset \(at); numbers start at 1"
        case .overflow(let at): return "number at offset \(at) in sequence set exceeds 4294967295"
        }
    }
}
