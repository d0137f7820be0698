/// What a batch action that may span accounts (the unified inbox) did: one action per account whose threads
/// it applied to, and a failure per thread it could not take (an unknown id, no Archive folder in that
/// account, nothing to do), which never stops the other threads.
public struct BatchActionResult: Sendable, Encodable {
    /// One account's action.
    public struct Applied: Sendable, Equatable, Encodable {
        /// The account.
        public var account: String
        /// The action's id (for `undo`, `history`, `actions`).
        public var action: String
        /// The threads of that account it applies to.
        public var threads: [String]
    }

    /// A thread the batch could not act on, and why.
    public struct Failure: Sendable, Encodable {
        /// The thread id as given.
        public var thread: String
        /// Why, in words.
        public var reason: String
        /// The error (its `ErrorCategory` tells what kind of failure it is).
        public var error: ThreadListError

        enum CodingKeys: String, CodingKey { case thread, reason }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(thread, forKey: .thread)
            try c.encode(reason, forKey: .reason)
        }
    }

    /// The actions taken, by account name.
    public var actions: [Applied] = []
    /// The threads not acted on.
    public var failures: [Failure] = []
}
