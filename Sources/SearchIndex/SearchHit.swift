import EventModel

/// One matching email copy, as the index has it.
package struct SearchHit: Equatable, Sendable {
    package var emailID: String
    package var account: String
    package var folder: String
    /// Message-ID without angle brackets.
    package var messageID: String?
    /// The message date, seconds since the epoch.
    package var date: Int64
    package var size: Int64
    package var subject: String
    /// From, To and Cc, de-duplicated, as the index keeps them (`SearchDocument`'s encoding): decoded by
    /// ``participants`` when used, not for each row a search skips.
    package var participantsField: String
    package var isSeen: Bool
    package var isFlagged: Bool
    package var hasAttachment: Bool
    package var category: AICategory

    /// From, To and Cc, de-duplicated.
    package var participants: [EmailAddress] { SearchDocument.decodeParticipants(participantsField) }
}

/// One thread of a search result: the thread id, the matching copies in it (result order first, then the
/// thread's other matches), and its first-matching copy.
package struct SearchThreadHit: Equatable, Sendable {
    package var threadID: String
    package var emailIDs: [String]
    package var first: SearchHit
}
