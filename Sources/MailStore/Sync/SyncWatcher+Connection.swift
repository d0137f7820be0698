extension SyncWatcher {
    /// Which of a watch's connections a failure came from, for the warning that says it (``SyncWatcher/onRetry``).
    public enum Connection: Sendable, CustomStringConvertible {
        /// The watch's own connection: its syncs of the Inbox and the IDLE on it.
        case idle
        /// The second connection, leased from the pool while the first IDLEs: the polls of every folder, the write-backs.
        case second

        /// "the IDLE connection", "the second connection, for polls and write-backs".
        public var description: String {
            switch self {
            case .idle: "the IDLE connection"
            case .second: "the second connection, for polls and write-backs"
            }
        }
    }
}
