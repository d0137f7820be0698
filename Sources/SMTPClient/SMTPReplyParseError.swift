/// Why bytes from an SMTP server are not a reply.
package enum SMTPReplyParseError: Error, CustomStringConvertible, Equatable {
    /// A line does not start with a three-digit code and a space or hyphen.
    case malformedLine(String)
    /// The lines of one reply carry different codes.
    case inconsistentCodes(Int, Int)
    /// A line is longer than ``SMTPReplyParser/maxLineLength`` bytes.
    case lineTooLong(Int)
    /// A reply has more than ``SMTPReplyParser/maxLines`` lines.
    case tooManyLines
    /// A reply's lines together are longer than ``SMTPReplyParser/maxReplyBytes``.
    case replyTooLong

    /// What is wrong with the server's reply.
    package var description: String {
        switch self {
        case .malformedLine(let line): return "a reply line does not start with a reply code: \(line.prefix(100))"
        case .inconsistentCodes(let first, let later): return "a reply mixes the codes \(first) and \(later)"
        case .lineTooLong(let count): return "a reply line of \(count) bytes is longer than \(SMTPReplyParser.maxLineLength)"
        case .tooManyLines: return "a reply has more than \(SMTPReplyParser.maxLines) lines"
        case .replyTooLong: return "a reply is longer than \(SMTPReplyParser.maxReplyBytes) bytes"
        }
    }
}
