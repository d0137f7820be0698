import EventModel

/// What a user's correction recorded.
public struct CategoryCorrection: Sendable, Equatable {
    /// The thread.
    public var threadID: String
    /// The category the user chose.
    public var category: AICategory
    /// The emails re-filed (one user `EmailCategorized` each).
    public var emailIDs: [String]
    /// The sender whose later mail goes there too (`SenderCategoryLearned`), if the newest email has one.
    public var learnedSender: String?
    /// The correlation id of the events.
    public var correlationID: EventID
}
