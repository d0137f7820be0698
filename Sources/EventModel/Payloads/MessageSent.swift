/// The SMTP server accepted the message.
public struct MessageSent: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The draft.
    public var draftID: String
    /// The Message-ID sent.
    public var messageID: String
    /// The server's final reply.
    public var serverResponse: String

    /// Creates the payload.
    public init(draftID: String, messageID: String, serverResponse: String = "") {
        self.draftID = draftID
        self.messageID = messageID
        self.serverResponse = serverResponse
    }

    package func encode(to w: inout ByteWriter) {
        w.write(draftID)
        w.write(messageID)
        w.write(serverResponse)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        draftID = try r.read()
        messageID = try r.read()
        serverResponse = try r.read()
    }
}
