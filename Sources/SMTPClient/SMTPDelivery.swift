/// One transaction's success: the recipients it carried and the server's reply to the message.
///
/// A server that takes fewer recipients a transaction than a message has (RFC 5321 4.5.3.1.10: 452 to the
/// `RCPT TO` past its limit, Gmail's at 100) gets the message in several transactions;
/// ``SMTPConnection/send(from:recipients:message:delivered:)`` reports each as it is accepted.
package struct SMTPDelivery: Sendable, Hashable {
    /// The recipients the server accepted the message for in this transaction, in the order given.
    package var recipients: [String]
    /// The server's reply to the message (2xx).
    package var reply: SMTPReply

    /// A transaction that carried `recipients` and ended with `reply`.
    package init(recipients: [String], reply: SMTPReply) {
        self.recipients = recipients
        self.reply = reply
    }
}
