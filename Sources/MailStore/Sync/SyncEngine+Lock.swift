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

    /// The lock that serialises one action's write-back (its commands to the server and the outcome recorded) with
    /// an undo of actions of the same account from any process (`ManageThreadActionsUseCase.undo`): without it, an
    /// undo landing while the server carried the action out only reverted it here, and the next sync brought the
    /// server's state back (the undo lost).
    package static let writeBackLockKind = "writeback"
    /// How long an undo or a write-back waits for the other: one action's commands and outcome (seconds, not a sync).
    package static let writeBackLockWaitSeconds = 30.0

    /// Runs `body` holding the account's write-back lock.
    func writingBack<R>(_ body: () throws -> R) throws -> R {
        let lock = try AccountLock(store: store.directory, kind: SyncEngine.writeBackLockKind, account: account.name,
                                   waitSeconds: SyncEngine.writeBackLockWaitSeconds)
        defer { lock.release() }
        return try body()
    }
}
