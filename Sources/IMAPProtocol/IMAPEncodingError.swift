/// Why a command could not be encoded. Each case refuses a value that would otherwise
/// change the meaning of the command or inject another one.
package enum IMAPEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The tag is empty or holds a byte a tag may not (space, CR, LF, `+`, 8-bit, ...).
    case invalidTag(String)
    /// A flag or keyword is not an atom (optionally after one `\`).
    case invalidFlag(String)
    /// A word sent as an atom (capability, mechanism, ...) holds a byte atoms may not.
    case invalidAtom(String)
    /// A SASL initial response is not base64.
    case invalidBase64(String)
    /// A UID set to send is empty.
    case emptySet

    /// A sentence saying what failed, for logs and error messages.
    package var description: String {
        switch self {
        case .invalidTag(let t): return "invalid IMAP tag \"\(t)\": use letters and digits"
        case .invalidFlag(let f): return "invalid IMAP flag or keyword \"\(f)\""
        case .invalidAtom(let a): return "\"\(a)\" cannot be sent as an IMAP atom"
        case .invalidBase64(let s): return "SASL initial response \"\(s)\" is not base64"
        case .emptySet: return "an empty UID set cannot be sent"
        }
    }
}
