/// How a sync runs.
public struct SyncOptions: Sendable {
    /// Only these folders (paths as the server names them; `INBOX` in any case). Nil: every syncable folder.
    public var folders: [String]?
    /// The most messages fetched and committed in one batch.
    public var batchMessages: Int
    /// The most message bytes fetched and committed in one batch.
    public var batchBytes: Int
    /// Network timeout for connecting and for each read (seconds).
    public var timeoutSeconds: Double
    /// Receives the IMAP conversation with credentials redacted (for `--trace`).
    public var trace: (@Sendable (String) -> Void)?

    public init(folders: [String]? = nil, batchMessages: Int = 500, batchBytes: Int = 16 << 20, timeoutSeconds: Double = 60,
                trace: (@Sendable (String) -> Void)? = nil) {
        self.folders = folders
        self.batchMessages = batchMessages
        self.batchBytes = batchBytes
        self.timeoutSeconds = timeoutSeconds
        self.trace = trace
    }
}
