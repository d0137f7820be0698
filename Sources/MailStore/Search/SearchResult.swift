/// One row of a search: a thread with its matching messages marked, or one message (the JSON shape of
/// docs/cli.md).
public struct SearchResult: Encodable, Sendable, Equatable {
    /// The thread (`email:ID` for a copy the threads view does not know).
    public var threadId: String
    /// Message-IDs of the matching messages.
    public var messageIds: [String]
    /// Email (copy) ids of the matching messages, for `mailstore show`.
    public var emailIds: [String]
    public var subject: String
    public var participants: [EmailAddress]
    /// ISO 8601: the message's date, or the thread's latest.
    public var date: String
    public var account: String
    public var folders: [String]
    public var messageCount: Int
    public var unread: Bool
    public var starred: Bool
    /// Events at the log's end the search index had not folded when this row was found (`SearchAnswer.indexBehind`):
    /// nil (left out of the JSON) when it had folded them all.
    public var indexBehind: UInt64?
}

/// How search results come back: as thread rows or as messages.
public enum SearchOutput: String, CaseIterable, Sendable {
    case threads, messages
}

/// A query that cannot be parsed: where and what.
public struct SearchSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The character offset (0-based) of the problem.
    public var offset: Int
    /// What is wrong.
    public var message: String
    /// The query on one line, a caret under the problem, and the message.
    public var pointer: String

    public var description: String { "malformed query at character \(offset + 1): \(message)" }
}
