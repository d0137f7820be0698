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
    /// Seconds one whole IMAP command (a fetch batch included) may take however the bytes trickle in;
    /// nil: 10 times ``timeoutSeconds`` (see `ServerEndpoint.commandTimeout`).
    public var commandTimeoutSeconds: Double?
    /// Receives the IMAP conversation with credentials redacted (for `--trace`).
    public var trace: (@Sendable (String) -> Void)?
    /// Fetch again the messages given up as unfetchable (``FolderSyncState/unfetchable``: the server failed to deliver
    /// them whole, each alone twice) in the folders synced, as after a repair of the server's index; one that fails
    /// alone twice again is given up again. Each such message costs up to three read timeouts when it still stalls.
    public var retryUnfetchable = false

    public init(folders: [String]? = nil, batchMessages: Int = 500, batchBytes: Int = 16 << 20, timeoutSeconds: Double = 60,
                commandTimeoutSeconds: Double? = nil, trace: (@Sendable (String) -> Void)? = nil) {
        self.commandTimeoutSeconds = commandTimeoutSeconds
        self.folders = folders
        self.batchMessages = batchMessages
        self.batchBytes = batchBytes
        self.timeoutSeconds = timeoutSeconds
        self.trace = trace
    }
}
