/// Why bytes are not valid modified UTF-7 (RFC 3501 §5.1.3).
package enum ModifiedUTF7Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// A byte outside printable US-ASCII (0x20–0x7E).
    case invalidByte(UInt8, at: Int)
    /// A `&` shift has no closing `-`.
    case unterminatedShift(at: Int)
    /// A byte inside a shift is not in the modified base64 alphabet.
    case invalidBase64(UInt8, at: Int)
    /// A shift does not decode to whole UTF-16 code units with zero padding bits.
    case invalidPadding(at: Int)
    /// The UTF-16 inside a shift has an unpaired surrogate.
    case invalidUTF16(at: Int)

    /// A sentence saying what failed, for logs and error messages.
    package var description: String {
        switch self {
        case .invalidByte(let b, let at): return "byte 0x\(String(b, radix: 16)) at offset \(at) is not printable ASCII"
        case .unterminatedShift(let at): return "shift started at offset \(at) has no closing '-'"
        case .invalidBase64(let b, let at): return "byte 0x\(String(b, radix: 16)) at offset \(at) is not modified base64"
        case .invalidPadding(let at): return "shift ending at offset \(at) leaves stray bits"
        case .invalidUTF16(let at): return "shift ending at offset \(at) holds an unpaired UTF-16 surrogate"
        }
    }
}
