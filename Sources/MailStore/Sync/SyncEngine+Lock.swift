import EventLog

extension SyncEngine {
    /// Runs `body` holding the account's sync lock (taken here unless an outer call holds it already), so
    /// two processes never sync or write back one account at once: both would otherwise record the same
    /// new folders, checkpoints and action outcomes. Waits at most `lockWaitSeconds` for another holder.
    func exclusively<R>(_ body: () throws -> R) throws -> R {
        if accountLock != nil { return try body() }
        let lock = try AccountLock(store: store.directory, kind: "sync", account: account.name, waitSeconds: lockWaitSeconds)
        accountLock = lock
        defer {
            accountLock = nil
            lock.release()
        }
        return try body()
    }
}
