/// No connection came free within the pool's queue timeout: the account's own limit or the process's global
/// limit stayed reached the whole time (other syncs, watches or sends of this process held every connection).
public struct ConnectionPoolTimeout: Error, Sendable, Equatable, CustomStringConvertible {
    /// The account that waited.
    public var account: String
    /// How long it waited (seconds).
    public var waitedSeconds: Double
    /// Connections of the account in use when it gave up, and its limit (the provider's `maxConnections`).
    public var accountInUse: Int
    public var accountLimit: Int
    /// Connections of the whole process in use when it gave up, and the global limit.
    public var totalInUse: Int
    public var globalLimit: Int

    public init(account: String, waitedSeconds: Double, accountInUse: Int, accountLimit: Int, totalInUse: Int, globalLimit: Int) {
        self.account = account
        self.waitedSeconds = waitedSeconds
        self.accountInUse = accountInUse
        self.accountLimit = accountLimit
        self.totalInUse = totalInUse
        self.globalLimit = globalLimit
    }

    public var description: String {
        "no IMAP connection for \(account) came free within \(Int(waitedSeconds.rounded())) s (\(accountInUse) of the account's "
            + "\(accountLimit) and \(totalInUse) of the process's \(globalLimit) connections in use); "
            + "try again when the other syncs of this process finish, or sync fewer accounts at once (`sync --account NAME`)"
    }
}
