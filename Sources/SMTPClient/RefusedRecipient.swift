/// A recipient the server refused at `RCPT TO`, with its reply.
package struct RefusedRecipient: Sendable, Hashable, CustomStringConvertible {
    /// The address as given to ``SMTPConnection/send(from:recipients:message:)``.
    package var address: String
    /// The server's reply (4xx: try again later; 5xx: this address will not work).
    package var reply: SMTPReply

    /// A refusal of `address` with `reply`.
    package init(address: String, reply: SMTPReply) {
        self.address = address
        self.reply = reply
    }

    /// Whether sending to this address may work later (a 4xx reply).
    package var isTemporary: Bool { reply.isTransientFailure }

    /// "<bob@example.com>: 550 5.1.1 Mailbox unavailable".
    package var description: String { "<\(address)>: \(reply)" }
}
