import EventModel

/// What the sync engine knows of one server copy (a UID in a folder).
public struct SyncedCopy: BinaryField, Equatable, Sendable {
    public var emailID: String
    public var uid: UInt32
    public var uidValidity: UInt32
    public var flags: [String]
    /// The Message-ID (for matching copies after a UIDVALIDITY change).
    public var messageID: String?
    public var size: UInt64
    /// The log sequence of its `EmailReceived`.
    public var sequence: UInt64

    public init(emailID: String, uid: UInt32, uidValidity: UInt32, flags: [String], messageID: String?, size: UInt64, sequence: UInt64) {
        self.emailID = emailID
        self.uid = uid
        self.uidValidity = uidValidity
        self.flags = flags
        self.messageID = messageID
        self.size = size
        self.sequence = sequence
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(emailID); w.write(uid); w.write(uidValidity); w.write(flags); w.write(messageID); w.write(size); w.write(sequence)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        emailID = try r.read(); uid = try r.read(); uidValidity = try r.read(); flags = try r.read()
        messageID = try r.read(); size = try r.read(); sequence = try r.read()
    }
}
