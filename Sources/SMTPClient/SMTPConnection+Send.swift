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
    ///
    /// A server that takes fewer recipients a transaction than the message has answers the `RCPT TO`
    /// past its limit with 452 (RFC 5321 4.5.3.1.10; 552 with the enhanced code 5.5.3 is taken the same
    /// way). Then the message goes in as many transactions as that limit needs, and still all or nothing
    /// as far as the server lets it be: every later group of recipients is first offered and reset
    /// (`MAIL FROM`, its `RCPT TO`s, `RSET`) so that a refused one stops the send before anything went
    /// out. `delivered` is called after each transaction the server accepted, before the next starts:
    /// a caller records there who has the message, since a failure in a later transaction (a lost
    /// connection, a 4xx to the message) leaves the earlier ones delivered. An error `delivered` throws
    /// stops the send with ``SMTPClientError/deliveryNotRecorded(_:)``.
    @discardableResult
    package func send(from: String, recipients: [String], message: [UInt8],
                      delivered: (SMTPDelivery) throws -> Void = { _ in }) throws(SMTPClientError) -> SMTPReply {
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
        let sizeParameter = extensions.has("SIZE") ? ["SIZE=\(payload.count)"] : []
        let mail = (["MAIL FROM:<\(from)>"] + parameters + sizeParameter).joined(separator: " ")
        let groups: [[String]]
        do throws(SMTPClientError) {
            let first = try offer(mail, from: from, recipients: recipients[...])
            guard first.refused.isEmpty else { throw SMTPClientError.recipientsRefused(first.refused) }
            if first.overflow.isEmpty {
                // Everyone fits in one transaction (the usual case): it goes now.
                try run("DATA", stage: .data, intermediate: true)
                let reply = try transmit(payload)
                try report(SMTPDelivery(recipients: recipients, reply: reply), to: delivered)
                return reply
            }
            try run("RSET", stage: .reset)
            groups = try grouped(mail, from: from, first: first.accepted, rest: first.overflow)
        } catch {
            reset(after: error)
            throw error
        }
        var last: SMTPReply?
        for group in groups {
            do throws(SMTPClientError) {
                let offered = try offer(mail, from: from, recipients: group[...])
                // Offered and reset moments ago; a server that changed its mind is answered as any refusal.
                guard offered.refused.isEmpty else { throw SMTPClientError.recipientsRefused(offered.refused) }
                if let limitReply = offered.limitReply {
                    throw SMTPClientError.recipientsRefused(offered.overflow.map { RefusedRecipient(address: $0, reply: limitReply) })
                }
                try run("DATA", stage: .data, intermediate: true)
            } catch {
                reset(after: error)
                throw error
            }
            let reply = try transmit(payload)
            try report(SMTPDelivery(recipients: group, reply: reply), to: delivered)
            last = reply
        }
        guard let last else { throw .noRecipients }
        return last
    }

    /// What the recipients of one transaction got: accepted, refused, and those not offered because the
    /// server's limit of recipients a transaction was reached (`limitReply` its answer).
    struct Offer {
        var accepted: [String] = []
        var refused: [RefusedRecipient] = []
        var overflow: [String] = []
        var limitReply: SMTPReply?
    }

    /// `MAIL FROM`, then `RCPT TO` for each of `recipients` until the server says its limit of recipients a
    /// transaction is reached: that one and those after it are the offer's overflow.
    private func offer(_ mail: String, from: String, recipients: ArraySlice<String>) throws(SMTPClientError) -> Offer {
        try run(mail, stage: .mailFrom(from))
        var offer = Offer()
        for (index, recipient) in zip(recipients.indices, recipients) {
            let reply = try command("RCPT TO:<\(recipient)>", stage: .recipient(recipient))
            if reply.isPositiveCompletion {
                offer.accepted.append(recipient)
                continue
            }
            guard reply.isTransientFailure || reply.isPermanentFailure else {
                throw fail(.protocolError("unexpected reply to RCPT TO: \(reply)"))
            }
            // A limit of none is no limit: with no recipient accepted yet, it is a refusal like any other.
            if !offer.accepted.isEmpty, SMTPConnection.saysTooManyRecipients(reply) {
                offer.overflow = Array(recipients[index...])
                offer.limitReply = reply
                return offer
            }
            offer.refused.append(RefusedRecipient(address: recipient, reply: reply))
        }
        return offer
    }

    /// The recipients in groups the server takes in one transaction each: `first` (accepted by the first
    /// offer, whose size is the server's limit), then `rest` offered (and reset) in groups of that size,
    /// smaller when the server takes fewer. Any refusal throws ``SMTPClientError/recipientsRefused(_:)`` with
    /// every refused recipient of every group, nothing having been sent.
    private func grouped(_ mail: String, from: String, first: [String], rest: [String]) throws(SMTPClientError) -> [[String]] {
        var groups = [first]
        var limit = first.count
        var refused: [RefusedRecipient] = []
        var next = rest[...]
        while !next.isEmpty {
            let offered = try offer(mail, from: from, recipients: next.prefix(limit))
            try run("RSET", stage: .reset)
            refused += offered.refused
            groups.append(offered.accepted)
            let taken = offered.accepted.count + offered.refused.count
            if !offered.overflow.isEmpty { limit = offered.accepted.count }
            next = next.dropFirst(taken)
        }
        guard refused.isEmpty else { throw .recipientsRefused(refused) }
        return groups.filter { !$0.isEmpty }
    }

    /// Whether a refusal of `RCPT TO` says the transaction holds as many recipients as the server takes:
    /// 452 (RFC 5321 4.5.3.1.10) unless its enhanced code names another cause (4.2.2 mailbox full, 4.3.1
    /// system storage), or 552 with the enhanced code 5.5.3 ("too many recipients", RFC 3463; RFC 5321 asks
    /// a client to take that 552 as temporary).
    static func saysTooManyRecipients(_ reply: SMTPReply) -> Bool {
        switch reply.code {
        case 452: return reply.enhancedCode == nil || reply.enhancedCode == "4.5.3"
        case 552: return reply.enhancedCode == "5.5.3"
        default: return false
        }
    }

    /// Sends the message after `DATA` was answered 354 and returns the server's 2xx reply to it.
    private func transmit(_ payload: [UInt8]) throws(SMTPClientError) -> SMTPReply {
        traceLine("C: <message, \(payload.count) bytes>")
        transport.setDeadline(secondsFromNow: endpoint.commandTimeout
                                  + Double(payload.count) / Double(SMTPConnection.deadlineBytesPerSecond))
        try write(payload)
        do throws(SMTPClientError) {
            return try require(try readReply(at: .message), stage: .message)
        } catch {
            // The connection is already marked lost (or refused the message); this call tells what that means for the
            // message: the whole of it went out, so a reply not read is no refusal.
            switch error {
            case .transport(.connectionClosed(let reason)): throw .deliveryUnconfirmed(reason)
            case .transport(.timeout(let seconds)), .transport(.deadlinePassed(let seconds)):
                throw .deliveryUnconfirmed("no reply within \(TransportError.format(seconds)) seconds")
            case .protocolError(let what): throw .deliveryUnconfirmed("its reply could not be read: \(what)")
            default: throw error
            }
        }
    }

    /// Hands a transaction's success to the caller; an error it throws stops the send.
    private func report(_ delivery: SMTPDelivery, to delivered: (SMTPDelivery) throws -> Void) throws(SMTPClientError) {
        do {
            try delivered(delivery)
        } catch {
            throw .deliveryNotRecorded(String(describing: error))
        }
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
        // An address beyond ASCII is checked first: its header fields are 8-bit too, and without SMTPUTF8 the
        // address is what must change, whatever the body's encoding.
        let international = ([from] + recipients).first { !$0.utf8.allSatisfy { $0 < 0x80 } }
        if let international, !extensions.smtpUTF8 { throw .internationalAddressUnsupported(international) }
        var parameters: [String] = []
        if SMTPMessageData.hasEightBitBytes(message) {
            guard extensions.eightBitMIME else { throw .eightBitUnsupported }
            parameters.append("BODY=8BITMIME")
        }
        if international != nil { parameters.append("SMTPUTF8") }
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
