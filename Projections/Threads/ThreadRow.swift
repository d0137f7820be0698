import EventModel

/// A thread as the thread list shows it: what one row needs, stored apart from the thread's membership
/// so a page decodes only this.
public struct ThreadRow: BinaryField, Equatable, Sendable {
    public var id: String
    public var account: String
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

    public init(id: String, account: String) {
        self.id = id
        self.account = account
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
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(id); w.write(account); w.write(subject); w.write(participants); w.write(snippet); w.write(latestDate)
        w.write(messageCount); w.write(unreadCount); w.write(isStarred); w.write(hasAttachments); w.write(category)
        w.write(folders); w.write(messageIDs)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        id = try r.read(); account = try r.read(); subject = try r.read(); participants = try r.read(); snippet = try r.read()
        latestDate = try r.read(); messageCount = try r.read(); unreadCount = try r.read(); isStarred = try r.read()
        hasAttachments = try r.read(); category = try r.read(); folders = try r.read(); messageIDs = try r.read()
    }
}
