/// One page of the thread list.
public struct ThreadPage: Sendable, Equatable, Encodable {
    /// The threads, newest first.
    public var threads: [ThreadSummary]
    /// The cursor of the next page; nil on the last page.
    public var nextCursor: ThreadCursor?
    /// True when more threads follow.
    public var hasMore: Bool

    /// Creates a page.
    public init(threads: [ThreadSummary], nextCursor: ThreadCursor?, hasMore: Bool) {
        self.threads = threads
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }

    /// An empty page: `{"threads": [], "nextCursor": null, "hasMore": false}`.
    public static let empty = ThreadPage(threads: [], nextCursor: nil, hasMore: false)

    enum CodingKeys: String, CodingKey { case threads, nextCursor, hasMore }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(threads, forKey: .threads)
        try c.encode(nextCursor, forKey: .nextCursor)
        try c.encode(hasMore, forKey: .hasMore)
    }
}
