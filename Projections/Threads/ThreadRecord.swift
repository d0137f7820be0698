import EventModel

/// A thread as the threads view stores it: its members and the row the thread list shows.
public struct ThreadRecord: BinaryField, Equatable, Sendable {
    public var id: String
    public var account: String
    /// The email copies in the thread.
    public var emailIDs: [String]
    /// Every message key (seen or only referenced) that maps to this thread.
    public var memberKeys: [String]
    /// The sequence of the event that created the thread (the older thread survives a merge).
    public var firstSequence: UInt64

    // The row.
    public var subject: String
    public var participants: [EmailAddress]
    public var snippet: String
    public var latestDate: Timestamp
    public var messageCount: Int
    public var unreadCount: Int
    public var isStarred: Bool
    public var hasAttachments: Bool
    public var category: AICategory
    /// Folders holding any of its emails.
    public var folders: [String]
    /// The distinct Message-IDs of its emails.
    public var messageIDs: [String]
    /// The index keys the row is listed under (so they can be removed when it changes).
    public var indexKeys: [[UInt8]]

    public init(id: String, account: String, firstSequence: UInt64) {
        self.id = id
        self.account = account
        emailIDs = []
        memberKeys = []
        self.firstSequence = firstSequence
        subject = ""
        participants = []
        snippet = ""
        latestDate = Timestamp(microseconds: 0)
        messageCount = 0
        unreadCount = 0
        isStarred = false
        hasAttachments = false
        category = .uncategorized
        folders = []
        messageIDs = []
        indexKeys = []
    }

    public func write(to w: inout ByteWriter) {
        w.write(id); w.write(account); w.write(emailIDs); w.write(memberKeys); w.write(firstSequence)
        w.write(subject); w.write(participants); w.write(snippet); w.write(latestDate); w.write(messageCount)
        w.write(unreadCount); w.write(isStarred); w.write(hasAttachments); w.write(category); w.write(folders)
        w.write(messageIDs)
        w.writeVarint(UInt64(indexKeys.count))
        for k in indexKeys { w.writeBytes(k) }
    }

    public init(from r: inout ByteReader) throws(DecodeError) {
        id = try r.read(); account = try r.read(); emailIDs = try r.read(); memberKeys = try r.read()
        firstSequence = try r.read(); subject = try r.read(); participants = try r.read(); snippet = try r.read()
        latestDate = try r.read(); messageCount = try r.read(); unreadCount = try r.read(); isStarred = try r.read()
        hasAttachments = try r.read(); category = try r.read(); folders = try r.read(); messageIDs = try r.read()
        let n = try r.readLength()
        var keys: [[UInt8]] = []
        for _ in 0..<n { keys.append(try r.readBytes()) }
        indexKeys = keys
    }
}
