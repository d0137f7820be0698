import SecureTransport

/// Why an SMTP connection, login or submission failed, and what to do about it.
///
/// ``isRetryable`` tells a send queue whether to try again later. No case ever holds a password
/// or token: commands are named by their stage, AUTH exchanges are never quoted.
package enum SMTPClientError: Error, CustomStringConvertible, Equatable {
    /// The connection under the protocol failed: not made, certificate rejected, TLS failed (or
    /// the server refused STARTTLS), lost (by the server, the network, or ``SMTPConnection/quit()``),
    /// timed out.
    case transport(TransportError)
    /// STARTTLS was asked for and the server does not offer it; nothing else was sent.
    case startTLSUnavailable(host: String)
    /// Credentials were about to be sent over an unencrypted connection; nothing was sent.
    case insecureAuthentication
    /// The server does not offer the authentication mechanism (or it does not fit the credential).
    case mechanismUnavailable(String)
    /// The server rejected the login (535: wrong credentials; 454: try again later).
    case authenticationFailed(SMTPReply)
    /// The server refused a command with a 5xx reply: sending the same again will fail again.
    case permanentFailure(stage: SMTPStage, reply: SMTPReply)
    /// The server refused a command with a 4xx reply: try again later.
    case temporaryFailure(stage: SMTPStage, reply: SMTPReply)
    /// The server refused these recipients at `RCPT TO`; the message was not sent to anyone and
    /// the transaction was reset (the connection stays usable).
    case recipientsRefused([RefusedRecipient])
    /// An address cannot be put into an SMTP command; nothing was sent.
    case invalidAddress(String, reason: String)
    /// An address is not ASCII and the server does not offer SMTPUTF8; nothing was sent.
    case internationalAddressUnsupported(String)
    /// The message has 8-bit bytes and the server does not offer 8BITMIME; nothing was sent.
    case eightBitUnsupported
    /// The message is larger than the server's announced SIZE limit; nothing was sent.
    case messageTooLarge(size: Int, limit: Int)
    /// `send` was called without any recipient.
    case noRecipients
    /// The server sent something this client cannot read or did not expect; the connection is unusable.
    /// Retryable: a new connection may find the server well again (nothing was sent, or
    /// ``deliveryUnconfirmed(_:)`` says so when the message was).
    case protocolError(String)
    /// The whole message was sent but its acknowledgement never came (`reason`): the server may
    /// have accepted it, so sending it again may deliver it twice.
    case deliveryUnconfirmed(String)
    /// The server accepted the message for some recipients, and recording that failed (`reason`): the
    /// send stopped before the next transaction, so the others did not get it.
    case deliveryNotRecorded(String)

    /// Whether the same submission may succeed later without changing anything: temporary (4xx)
    /// failures, lost connections and timeouts, and a server that broke the protocol (a reply too long
    /// or not SMTP, one nobody asked for, an AUTH exchange that never ends: a glitch until it persists).
    /// False for permanent refusals, TLS, certificate and credential errors, which need a change first.
    package var isRetryable: Bool {
        switch self {
        case .temporaryFailure, .deliveryUnconfirmed, .protocolError:
            return true
        case .transport(let error):
            return error.isRetryable
        case .authenticationFailed(let reply):
            return reply.isTransientFailure
        case .recipientsRefused(let refused):
            return refused.allSatisfy(\.isTemporary)
        case .startTLSUnavailable, .insecureAuthentication, .mechanismUnavailable,
             .permanentFailure, .invalidAddress, .internationalAddressUnsupported, .eightBitUnsupported,
             .messageTooLarge, .noRecipients, .deliveryNotRecorded:
            return false
        }
    }

    /// What a refusal at AUTH says when it is about the mechanism, not the credentials (RFC 4954 §6, RFC 5321):
    /// 504 not implemented, 534 too weak, 538 needs encryption; nil for any other reply (535: the credentials).
    package static func mechanismRefusal(_ reply: SMTPReply) -> String? {
        switch reply.code {
        case 504: "the server does not implement it, though it may offer it; no other mechanism it offers fits the credential"
        case 534: "the server takes it as too weak and wants a stronger one, which mailstore does not do"
        case 538: "the server wants it over an encrypted connection"
        default: nil
        }
    }

    /// A sentence saying what failed and what to do.
    package var description: String {
        switch self {
        case .transport(let error):
            return "SMTP: \(error)"
        case .startTLSUnavailable(let host):
            return "Secure connection failed: \(host) does not offer STARTTLS; refusing to continue without TLS (use implicit TLS?)"
        case .insecureAuthentication:
            return "refusing to send credentials over an unencrypted connection: use TLS or STARTTLS"
        case .mechanismUnavailable(let what):
            return "authentication mechanism unavailable: \(what)"
        case .authenticationFailed(let reply):
            if reply.isTransientFailure { return "the SMTP server could not log in now (\(reply)); try again later" }
            if let refused = SMTPClientError.mechanismRefusal(reply) {
                return "the SMTP server refused the authentication mechanism, not the login (\(reply)): \(refused)"
            }
            return "SMTP authentication failed (\(reply)); check the user name and the password or token"
        case .permanentFailure(let stage, let reply):
            return "the SMTP server refused \(stage) permanently (\(reply)); sending again will not help"
        case .temporaryFailure(let stage, let reply):
            return "the SMTP server refused \(stage) for now (\(reply)); try again later"
        case .recipientsRefused(let refused):
            let permanent = refused.contains { !$0.isTemporary }
            return "the SMTP server refused \(refused.count == 1 ? "a recipient" : "\(refused.count) recipients") "
                + "(\(refused.map(\.description).joined(separator: "; "))); nothing was sent, "
                + (permanent ? "remove or correct the refused addresses" : "try again later")
        case .invalidAddress(let address, let reason):
            return "cannot send to or from \"\(address)\": \(reason); correct the address"
        case .internationalAddressUnsupported(let address):
            return "the address \(address) is not ASCII and the SMTP server does not offer SMTPUTF8; use an ASCII address"
        case .eightBitUnsupported:
            return "the message has 8-bit bytes and the SMTP server does not offer 8BITMIME; "
                + "encode it as quoted-printable or base64"
        case .messageTooLarge(let size, let limit):
            return "the message (\(size) bytes) is larger than the SMTP server accepts (\(limit) bytes); remove attachments"
        case .noRecipients:
            return "a message needs at least one recipient"
        case .protocolError(let what):
            return "SMTP protocol error: \(what); the connection was closed, and a later try makes a new one"
        case .deliveryUnconfirmed(let reason):
            return "the message was sent but the SMTP server never confirmed it (\(reason)); "
                + "it may have been delivered: sending it again may deliver it twice"
        case .deliveryNotRecorded(let reason):
            return "the SMTP server accepted the message for some recipients, but recording that failed (\(reason)); "
                + "the others were not sent: mend the store, then send again"
        }
    }
}
