/// Why the bytes a server sent could not be read as IMAP responses.
///
/// Every error is final for the connection: the parser cannot know where the next response
/// starts, so after throwing it keeps throwing the same error (see ``IMAPResponseParser``).
/// Offsets count bytes from the first byte ever fed to the parser.
package enum IMAPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A literal (`{n}`, `{n+}` or `~{n}`) announced more bytes than the parser accepts.
    /// The parser throws as soon as it reads the announcement, before any of the data arrives.
    case literalTooLarge(size: UInt64, limit: Int)
    /// The non-literal bytes of one response (its lines, terminators included) exceed the limit.
    case lineTooLong(limit: Int)
    /// Parenthesised lists are nested deeper than the limit.
    case nestingTooDeep(limit: Int)
    /// One response, literals included, would exceed the total size limit.
    case responseTooLarge(size: UInt64, limit: Int)
    /// The bytes do not follow the IMAP grammar; the string says what was expected or found.
    case malformed(String, at: Int)

    /// A sentence saying what failed, for logs and error messages.
    package var description: String {
        switch self {
        case .literalTooLarge(let size, let limit):
            return "IMAP literal of \(size) bytes exceeds the limit of \(limit) bytes"
        case .lineTooLong(let limit):
            return "IMAP response line exceeds the limit of \(limit) bytes"
        case .nestingTooDeep(let limit):
            return "IMAP response nests parentheses deeper than \(limit) levels"
        case .responseTooLarge(let size, let limit):
            return "IMAP response of at least \(size) bytes exceeds the limit of \(limit) bytes"
        case .malformed(let what, let at):
            return "malformed IMAP response at byte \(at): \(what)"
        }
    }
}
