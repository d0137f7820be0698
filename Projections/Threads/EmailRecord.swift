import EventModel

/// What the threads view keeps of one email copy.
public struct EmailRecord: BinaryField, Equatable, Sendable {
    public var account: String
    public var folder: String
    /// The message's dedup key: its Message-ID, or `<emailID>` when it has none.
    public var messageKey: String
    public var threadID: String
    public var date: Timestamp
    public var sender: EmailAddress?
    public var subject: String
    public var snippet: String
    public var flags: [String]
    public var hasAttachments: Bool
    public var category: AICategory
    /// The log sequence that created it (orders threads for merges).
    public var sequence: UInt64

    public init(account: String, folder: String, messageKey: String, threadID: String, date: Timestamp,
                sender: EmailAddress?, subject: String, snippet: String, flags: [String], hasAttachments: Bool,
                category: AICategory, sequence: UInt64) {
        self.account = account
        self.folder = folder
        self.messageKey = messageKey
        self.threadID = threadID
        self.date = date
        self.sender = sender
        self.subject = subject
        self.snippet = snippet
        self.flags = flags
        self.hasAttachments = hasAttachments
        self.category = category
        self.sequence = sequence
    }

    /// True when the copy has `\Seen`.
    public var isSeen: Bool { flags.contains("\\Seen") }
    /// True when the copy has `\Flagged`.
    public var isFlagged: Bool { flags.contains("\\Flagged") }

    /// The layout `EmailCopyState.init(from:)` also reads (a change here changes it there).
    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(account); w.write(folder); w.write(messageKey); w.write(threadID); w.write(date); w.write(sender)
        w.write(subject); w.write(snippet); w.write(flags); w.write(hasAttachments); w.write(category); w.write(sequence)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        account = try r.read(); folder = try r.read(); messageKey = try r.read(); threadID = try r.read()
        date = try r.read(); sender = try r.read(); subject = try r.read(); snippet = try r.read()
        flags = try r.read(); hasAttachments = try r.read(); category = try r.read(); sequence = try r.read()
    }
}
