import EventLog
import EventModel
import Foundation
import Projections
import Views

extension MailStore {
    /// Adds an account: validates `settings` and commits `AccountAdded` (which carries no secret), with
    /// `AccountSettingsDiscovered` when its servers were looked up (registry, discovery or the cache) rather
    /// than given: where each came from, and the cache a later lookup of the domain reuses.
    @discardableResult
    public func addAccount(_ settings: AccountSettings) throws -> AccountAdded {
        let payload = try settings.validated()
        if try latestViews().account(named: payload.name) != nil { throw AccountError.exists(payload.name) }
        let stream = StreamName.account(payload.name)
        var events = [NewEvent(event: .accountAdded(payload), account: payload.name, stream: stream, actor: .user,
                               expectedVersion: try expectedVersion(of: stream))]
        if let found = settings.discoveryEvent(for: payload) {
            events.append(NewEvent(event: .accountSettingsDiscovered(found), account: payload.name, stream: stream, actor: .user))
        }
        try commit(events)
        return payload
    }

    /// Removes an account from the configuration (`AccountRemoved`); its mail stays in the log. An OAuth
    /// account's sign-in goes with it: once `AccountRemoved` is committed, its refresh token is revoked at the
    /// provider when the token file names a revocation endpoint (RFC 7009; best effort, within
    /// `revokeTimeoutSeconds`, default 10, 1 to 60) and its token file (this store's `secrets/NAME.oauth`)
    /// is deleted. Returns what the user should know: a revocation that failed or that the provider does not
    /// offer (the removal is done all the same), a token file that could not be deleted.
    @discardableResult
    public func removeAccount(named name: String, revokeTimeoutSeconds: Double = 10) throws -> [String] {
        guard let account = try latestViews().account(named: name)?.settings else { throw AccountError.notFound(name) }
        let stream = StreamName.account(name)
        try commit([NewEvent(event: .accountRemoved(AccountRemoved(name: name)), account: name, stream: stream,
                             actor: .user, expectedVersion: .exactly(try log.streamVersion(stream)))])
        guard case .oauth(let path)? = credentialSource(of: account),
              path.hasPrefix(directory.path + "/secrets/") else { return [] }
        let limit = revokeTimeoutSeconds.isFinite ? min(max(revokeTimeoutSeconds, 1), 60) : 10
        var notes: [String] = []
        if let file = try? OAuthTokenFile.read(path) {
            notes += MailStore.revoke(file, account: name, caFile: account.caFile, deadline: Date().addingTimeInterval(limit))
        }
        if unlink(path) != 0 && errno != ENOENT {
            notes.append("could not delete the token file \(path): \(String(cString: strerror(errno))); delete it by hand")
        }
        return notes
    }

    /// Revokes the refresh token of `file` (best effort, by `deadline`); what went wrong, for the user.
    private static func revoke(_ file: OAuthTokenFile, account: String, caFile: String?, deadline: Date) -> [String] {
        guard file.config.revocationEndpoint != nil else {
            return ["the provider offers no token revocation: the sign-in stays valid there until it expires; "
                    + "remove mailstore's access in your account's security settings to end it now"]
        }
        do {
            let token = try file.currentRefreshToken(account: account)
            try OAuthClient(config: file.config, account: account, caFile: caFile).revoke(token, deadline: deadline)
            return []
        } catch {
            return ["the sign-in could not be revoked at the provider (\(error)); it stays valid there until it expires: "
                    + "remove mailstore's access in your account's security settings to end it now"]
        }
    }
}

extension MailStore {
    /// The four-step connection test of the account named `name` (nothing is recorded), all within
    /// `budgetSeconds`: an OAuth token refresh in it included (``CredentialSource/refreshDeadline``), with this
    /// store's token file.
    public func testAccount(named name: String, budgetSeconds: Double = 10) throws -> ConnectionTest.Report {
        guard let account = try latestViews().account(named: name)?.settings else { throw AccountError.notFound(name) }
        let test = ConnectionTest(account: withSourcesInStore(account), budgetSeconds: budgetSeconds)
        return CredentialSource.$refreshDeadline.withValue(Date().addingTimeInterval(test.budgetSeconds)) { test.run() }
    }
}
