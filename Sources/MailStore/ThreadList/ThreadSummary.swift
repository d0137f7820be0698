import EventModel
import Foundation

/// A thread row of the thread list (the client spec's `Thread`).
public struct ThreadSummary: Sendable, Equatable, Encodable {
    /// The thread id.
    public var id: String
    /// The account.
    public var accountId: String
    /// The base subject (Re:, Fwd:, [list] tags stripped).
    public var subject: String
    /// Senders, most recent first.
    public var participants: [Participant]
    /// The latest message's snippet.
    public var snippet: String
    /// The latest message's date.
    public var latestDate: Date
    /// Distinct messages (a message in Inbox and All Mail counts once).
    public var messageCount: Int
    /// Distinct messages with no copy read.
    public var unreadCount: Int
    /// Any copy flagged.
    public var isStarred: Bool
    /// Any non-inline attachment.
    public var hasAttachments: Bool
    /// The AI category.
    public var aiCategory: AICategory
    /// The Message-IDs of its emails.
    public var messageIds: [String]
    /// Folders holding any of its emails.
    public var folders: [String]

    /// The spec's participants JSON string.
    public var participantsJSON: String { Participant.encode(participants) }

    enum CodingKeys: String, CodingKey {
        case id, accountId, subject, participants, snippet, latestDate, messageCount, unreadCount, isStarred,
             hasAttachments, aiCategory, messageIds, folders
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(accountId, forKey: .accountId)
        try c.encode(subject, forKey: .subject)
        try c.encode(participants, forKey: .participants)
        try c.encode(snippet, forKey: .snippet)
        try c.encode(Timestamp(latestDate).iso8601, forKey: .latestDate)
        try c.encode(messageCount, forKey: .messageCount)
        try c.encode(unreadCount, forKey: .unreadCount)
        try c.encode(isStarred, forKey: .isStarred)
        try c.encode(hasAttachments, forKey: .hasAttachments)
        try c.encode(aiCategory, forKey: .aiCategory)
        try c.encode(messageIds, forKey: .messageIds)
        try c.encode(folders, forKey: .folders)
    }
}
