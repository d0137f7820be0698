/// What putting the drafts into the server's Drafts folder did.
public struct DraftSyncReport: Sendable, Equatable, Encodable {
    /// Draft versions APPENDed to the Drafts folder (or found there after an interrupted APPEND).
    public var stored = 0
    /// Older copies (earlier versions, or of drafts sent or discarded) deleted from the server.
    public var removed = 0
    /// Drafts not (yet) on the server, and why.
    public var problems: [Problem] = []

    /// A draft that could not be put on the server or whose old copy could not be deleted.
    public struct Problem: Sendable, Equatable, Encodable {
        /// The draft id.
        public var draft: String
        /// Why.
        public var reason: String
        /// True when the server has no Drafts folder: the draft stays on this device only (a warning).
        public var localOnly: Bool
        /// True when it is tried again later (with backoff).
        public var retrying: Bool
    }

    public init() {}
}
