import SecureTransport

extension SMTPConnection {
    /// Submits `message` (RFC 5322 bytes) from `from` to every one of `recipients` (the envelope:
    /// To, Cc and Bcc addresses, bare `local@domain`) and returns the server's final reply.
    ///
    /// Before sending anything it checks the addresses, that non-ASCII addresses have SMTPUTF8,
    /// 8-bit bytes have 8BITMIME and the size fits the announced SIZE. Then `MAIL FROM` (with
    /// `BODY=8BITMIME` when the message has 8-bit bytes, `SMTPUTF8` when an address is not ASCII,
    /// `SIZE=`), one `RCPT TO` per recipient and `DATA` with the message dot-stuffed and its line
    /// ends made CRLF.
    ///
    /// All or nothing: when any recipient is refused, the transaction is reset and
    /// ``SMTPClientError/recipientsRefused(_:)`` lists every refused one with its reply. A refusal
    /// of `MAIL FROM` or of the message throws ``SMTPClientError/permanentFailure(stage:reply:)``
    /// (5xx) or ``SMTPClientError/temporaryFailure(stage:reply:)`` (4xx); the connection stays
    /// usable. When the connection breaks after the whole message went out, before the server's
    /// reply, the error is ``SMTPClientError/deliveryUnconfirmed(_:)``.
    @discardableResult
    package func send(from: String, recipients: [String], message: [UInt8]) throws(SMTPClientError) -> SMTPReply {
        try ensureUsable()
        // The encoded message is never shorter than the message: check the cheap size first.
        if let limit = extensions.maxMessageSize, message.count > limit {
            throw .messageTooLarge(size: message.count, limit: limit)
        }
        let parameters = try mailParameters(from: from, recipients: recipients, message: message)
        let payload = SMTPMessageData.encode(message)
        if let limit = extensions.maxMessageSize, payload.count > limit {
            throw .messageTooLarge(size: payload.count, limit: limit)
        }
        do throws(SMTPClientError) {
            let sizeParameter = extensions.has("SIZE") ? ["SIZE=\(payload.count)"] : []
            try run((["MAIL FROM:<\(from)>"] + parameters + sizeParameter).joined(separator: " "), stage: .mailFrom(from))
            var refused: [RefusedRecipient] = []
            for recipient in recipients {
                let reply = try command("RCPT TO:<\(recipient)>", stage: .recipient(recipient))
                if reply.isPositiveCompletion { continue }
                guard reply.isTransientFailure || reply.isPermanentFailure else {
                    throw fail(.protocolError("unexpected reply to RCPT TO: \(reply)"))
                }
                refused.append(RefusedRecipient(address: recipient, reply: reply))
            }
            guard refused.isEmpty else { throw SMTPClientError.recipientsRefused(refused) }
            try run("DATA", stage: .data, intermediate: true)
        } catch {
            reset(after: error)
            throw error
        }
        traceLine("C: <message, \(payload.count) bytes>")
        transport.setDeadline(secondsFromNow: endpoint.commandTimeout
                                  + Double(payload.count) / Double(SMTPConnection.deadlineBytesPerSecond))
        try write(payload)
        let reply: SMTPReply
        do throws(SMTPClientError) {
            reply = try readReply(at: .message)
        } catch {
            // The connection is already marked lost; this call tells what that means for the message.
            switch error {
            case .transport(.connectionClosed(let reason)): throw .deliveryUnconfirmed(reason)
            case .transport(.timeout(let seconds)), .transport(.deadlinePassed(let seconds)):
                throw .deliveryUnconfirmed("no reply within \(TransportError.format(seconds)) seconds")
            default: throw error
            }
        }
        return try require(reply, stage: .message)
    }

    /// Says `QUIT` when the connection is still usable and closes it; never throws. Later calls
    /// throw ``SMTPClientError/transport(_:)`` (connection closed).
    package func quit() {
        if failure.error == nil { _ = try? command("QUIT", stage: .quit) }
        _ = fail(.transport(.connectionClosed("the connection was closed with QUIT")))
    }

    /// The `MAIL FROM` parameters the message needs (`BODY=8BITMIME`, `SMTPUTF8`), after checking
    /// the addresses and that the server offers what the message needs.
    private func mailParameters(from: String, recipients: [String], message: [UInt8]) throws(SMTPClientError) -> [String] {
        guard !recipients.isEmpty else { throw .noRecipients }
        try SMTPAddress.validate(from, isSender: true)
        for recipient in recipients { try SMTPAddress.validate(recipient, isSender: false) }
        var parameters: [String] = []
        if SMTPMessageData.hasEightBitBytes(message) {
            guard extensions.eightBitMIME else { throw .eightBitUnsupported }
            parameters.append("BODY=8BITMIME")
        }
        if let international = ([from] + recipients).first(where: { !$0.utf8.allSatisfy { $0 < 0x80 } }) {
            guard extensions.smtpUTF8 else { throw .internationalAddressUnsupported(international) }
            parameters.append("SMTPUTF8")
        }
        return parameters
    }

    /// After a refusal in the middle of a transaction, `RSET` so the next message starts clean
    /// (best effort: a failing RSET marks the connection unusable for the next call).
    private func reset(after error: SMTPClientError) {
        switch error {
        case .permanentFailure, .temporaryFailure, .recipientsRefused:
            guard failure.error == nil else { return }
            _ = try? run("RSET", stage: .reset)
        default:
            return
        }
    }
}
