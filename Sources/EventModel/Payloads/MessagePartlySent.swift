/// The SMTP server accepted the message for some of its recipients, in a transaction of their own: it
/// takes fewer recipients a transaction than the message has (RFC 5321 4.5.3.1.10). The rest follow in
/// later transactions, `MessageSent` when the last is accepted; a retry of the same queuing skips these.
public struct MessagePartlySent: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The draft.
    public var draftID: String
    /// The Message-ID sent.
    public var messageID: String
    /// The envelope recipients (`RCPT TO`) this transaction carried.
    public var recipients: [String]
    /// The server's reply to the message in this transaction.
    public var serverResponse: String

    /// Creates the payload.
    public init(draftID: String, messageID: String, recipients: [String], serverResponse: String = "") {
        self.draftID = draftID
        self.messageID = messageID
        self.recipients = recipients
        self.serverResponse = serverResponse
    }

    package func encode(to w: inout ByteWriter) {
        w.write(draftID)
        w.write(messageID)
        w.write(recipients)
        w.write(serverResponse)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        draftID = try r.read()
        messageID = try r.read()
        recipients = try r.read()
        serverResponse = try r.read()
    }
}
