/// The step of an SMTP session a reply or failure belongs to.
package enum SMTPStage: Sendable, Hashable, CustomStringConvertible {
    /// The server's greeting on connect.
    case greeting
    /// `EHLO`.
    case hello
    /// `STARTTLS`.
    case startTLS
    /// `AUTH`.
    case authentication
    /// `MAIL FROM`, naming the sender address.
    case mailFrom(String)
    /// `RCPT TO`, naming the recipient address.
    case recipient(String)
    /// `DATA`, before the message is sent.
    case data
    /// The reply to the whole message, after its final `.`.
    case message
    /// `RSET`.
    case reset
    /// `QUIT`.
    case quit

    /// The command, as in "MAIL FROM:<alice@example.com>".
    package var description: String {
        switch self {
        case .greeting: return "the greeting"
        case .hello: return "EHLO"
        case .startTLS: return "STARTTLS"
        case .authentication: return "AUTH"
        case .mailFrom(let address): return "MAIL FROM:<\(address)>"
        case .recipient(let address): return "RCPT TO:<\(address)>"
        case .data: return "DATA"
        case .message: return "the message (end of DATA)"
        case .reset: return "RSET"
        case .quit: return "QUIT"
        }
    }
}
