/// Send was requested; nothing reaches SMTP before `dueAt` (undo send).
public struct MessageQueued: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The draft sent.
    public var draftID: String
    /// Which draft version is sent.
    public var draftVersion: UInt32
    /// The Message-ID it will carry.
    public var messageID: String
    /// Earliest submission time.
    public var dueAt: Timestamp

    /// Creates the payload.
    public init(draftID: String, draftVersion: UInt32, messageID: String, dueAt: Timestamp) {
        self.draftID = draftID
        self.draftVersion = draftVersion
        self.messageID = messageID
        self.dueAt = dueAt
    }

    package func encode(to w: inout ByteWriter) {
        w.write(draftID)
        w.write(draftVersion)
        w.write(messageID)
        w.write(dueAt)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        draftID = try r.read()
        draftVersion = try r.read()
        messageID = try r.read()
        dueAt = try r.read()
    }
}
