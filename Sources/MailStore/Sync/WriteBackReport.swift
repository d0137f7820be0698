/// What writing the pending actions back to the server did.
public struct WriteBackReport: Sendable, Equatable, Encodable {
    /// Email copies the server accepted (or that had no server copy to change).
    public var applied = 0
    /// Email copies the server refused; reverted in the views.
    public var rejected = 0
    /// Email copies left pending after a temporary failure (retried later).
    public var failed = 0
    /// Email copies of actions not sent this time: their retry time, after an earlier failure, has not come.
    public var waiting = 0
    /// The actions with a refused or failed part, and why.
    public var problems: [Problem] = []
    /// What putting the drafts into the server's Drafts folder did.
    public var drafts = DraftSyncReport()

    public struct Problem: Sendable, Equatable, Encodable {
        public var action: String
        public var threads: [String]
        public var emails: Int
        public var reason: String
        public var retrying: Bool
    }

    public init() {}

    /// Whether anything was tried on the server (applied, refused or failed: a failed move may have moved); actions only
    /// waiting for their retry time touched nothing.
    var triedAny: Bool {
        var tried = self
        tried.waiting = 0
        return tried != WriteBackReport()
    }
}
