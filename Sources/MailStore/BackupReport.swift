import EventLog

/// What `MailStore.backup(to:)` wrote.
public struct BackupReport: Sendable, Equatable {
    /// The backup's folder (absolute).
    public var destination: String
    /// Where the copy is: `destination`, or when it failed verification its `unverified/` folder (kept there for
    /// inspection, not put in place: `destination` stays marked unfinished and the next backup into it clears it).
    public var copyFolder: String
    /// The last sequence in the copy and its chain hash: the log as it was when the copy's read transaction began
    /// (writers went on meanwhile; what they appended after that is not in the copy).
    public var headSequence: UInt64
    public var headHash: [UInt8]
    /// The store's log file and the copy's, in bytes (the copy is compacted: free pages left out).
    public var sourceFileBytes: Int
    public var copyFileBytes: Int
    /// The OAuth token files (`secrets/`) copied, and those left out (without `includeSecrets`).
    public var secretsCopied: Int
    public var secretsLeftOut: Int
    /// With `includeSecrets`, the entries of `secrets/` that are not regular files (symbolic links, FIFOs, folders):
    /// not copied, each with why.
    public var secretsSkipped: [SkippedSecretFile] = []
    /// The accounts (sorted names) whose secret is a file outside the store (`file:PATH`, or an OAuth token file
    /// outside its `secrets/`): never in a backup; a store restored from it reads them from the same paths.
    public var accountsWithSecretsOutside: [String] = []
    /// Why ``accountsWithSecretsOutside`` could not be made (the log's account streams could not be read: a damaged
    /// stream index, which the verification of the copy names too), or nil when it was: when set, the list is empty
    /// because it is not known, not because no account keeps its secret outside the store.
    public var accountsWithSecretsOutsideUnlisted: String? = nil
    /// True when the folder held what a backup killed midway had left there (cleared first).
    public var clearedUnfinished: Bool
    /// The copy walked as `verify` walks a store (hash chain, every record, indexes, blobs), when asked.
    public var verification: VerifyReport?
    /// Seconds spent copying the log, and verifying the copy.
    public var copySeconds: Double
    public var verifySeconds: Double
}
