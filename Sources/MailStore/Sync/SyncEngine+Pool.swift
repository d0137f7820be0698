import IMAPClient

extension SyncEngine {
    /// The process's IMAP connections: 30 at most across all accounts, a 30 s queue timeout (see ``ConnectionPool``).
    package static let connections = ConnectionPool<IMAPConnection>(globalLimit: 30, queueTimeoutSeconds: 30)

    /// The longest a released connection stays open unused: 15 minutes (the desktop value of FR-SYNC-16).
    package static let idleCloseSeconds = 15.0 * 60

    /// Closes the idle connections of the process (a command that is done with the servers calls it); returns how many.
    @discardableResult
    public static func closeIdleConnections() -> Int {
        connections.closeIdle()
    }

    /// The pool's name for this account: its store and name (the per-account limit counts under it).
    var poolAccount: String { store.directory.path + "\n" + account.name }

    /// What must match for an idle connection to be reused: the server, the user, the credential and the timeouts.
    var poolReuseKey: String {
        [account.imapHost, "\(account.imapPort)", account.imapSecurity, account.username, account.auth, account.credentialSource,
         account.caFile ?? "", "\(options.timeoutSeconds)", "\(options.commandTimeoutSeconds ?? 0)", options.trace == nil ? "" : "trace"]
            .joined(separator: "\n")
    }

    /// The account's limits: the provider's `maxConnections`; idle connections closed after 15 minutes, or after
    /// the provider's IDLE refresh when that is shorter (a provider that drops an IDLE drops a silent connection too).
    package var poolLimits: ConnectionPool<IMAPConnection>.Limits {
        .init(maxConnections: provider.maxConnections, idleCloseSeconds: min(SyncEngine.idleCloseSeconds, provider.idleRefreshSeconds))
    }
}
