import EventLog
import EventModel
import Foundation
import SecureTransport
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
        try checkNameAndMailbox(payload)
        let stream = StreamName.account(payload.name)
        var events = [NewEvent(event: .accountAdded(payload), account: payload.name, stream: stream, actor: .user,
                               expectedVersion: try expectedVersion(of: stream))]
        if let found = settings.discoveryEvent(for: payload) {
            events.append(NewEvent(event: .accountSettingsDiscovered(found), account: payload.name, stream: stream, actor: .user))
        }
        try commit(events)
        return payload
    }

    /// Refuses an account whose name or mailbox would mix it up with what the store holds: a mailbox another account
    /// reads (the same IMAP host, port and login, case aside); a name differing from a known one (configured, once configured,
    /// or holding imported mail) only by case, width or Unicode form (NFKC, case-folded); a name once an account of
    /// another mailbox (its sync state, drafts and pending actions are still filed under it: a new mailbox with the
    /// same UIDVALIDITY would have had the old account's flags and moves applied to its own messages); a name holding
    /// imported mail. The same mailbox added again under its old name is allowed: it goes on where it was.
    func checkNameAndMailbox(_ p: AccountAdded) throws {
        let views = try latestViews()
        let configured = try views.accountList().map(\.settings)
        if let twin = configured.first(where: { MailStore.mailbox(of: $0) == MailStore.mailbox(of: p) && $0.imapPort == p.imapPort }) {
            throw AccountError.sameMailbox(name: p.name, existing: twin.name)
        }
        let stream = StreamName.account(p.name)
        var previous: AccountAdded?
        if try log.streamVersion(stream) > 0 {
            // The name's own stream: its adds, discoveries and removals only.
            try log.scanDecoded(filter: ScanFilter(stream: stream)) { _, event in
                if case .success(.accountAdded(let a)) = event { previous = a }
                return true
            }
        }
        let folded = MailStore.folded(p.name)
        let known = configured.map(\.name) + (try views.accounts())
        if let like = known.first(where: { !$0.utf8.elementsEqual(p.name.utf8) && MailStore.folded($0) == folded }) {
            throw AccountError.nameLike(name: p.name, existing: like)
        }
        if let previous {
            // Only where something is filed under the name: an account added with a mistyped host and removed before
            // it synced is added again as it should have been.
            guard try MailStore.mailbox(of: previous) == MailStore.mailbox(of: p) || !holdsState(p.name, views: views) else {
                throw AccountError.nameHeldAnotherMailbox(name: p.name, login: previous.username, host: previous.imapHost)
            }
        } else if try !views.folders(account: p.name).isEmpty {
            throw AccountError.nameHoldsImportedMail(p.name)
        }
    }

    /// Refuses to import mail under `name` where it would mix with an IMAP account: the name of one configured now or
    /// once (its `account/NAME` stream holds an `AccountAdded`: its folders mirror its server, and its removal keeps its
    /// mail and sync state filed under the name for a re-add), or a name differing from one of those only by case, width
    /// or Unicode form. Reads the log's stream index only (the views are not opened, let alone caught up: an import
    /// starts at once whatever their state); at most 10,000 account names are compared. The twin of
    /// ``checkNameAndMailbox(_:)``, which refuses an account over a name holding imported mail.
    func checkImportAccount(_ name: String) throws {
        let stream = StreamName.account(name)
        if try log.streamVersion(stream) > 0 {
            var configured = false
            try log.scanDecoded(filter: ScanFilter(stream: stream)) { _, event in
                if case .success(.accountAdded) = event { configured = true; return false }
                return true
            }
            if configured { throw ImportError.accountIsConfigured(name) }
        }
        let folded = MailStore.folded(name)
        let prefix = StreamName.account("").rawValue
        for streamName in try log.streamNames(prefix: prefix) {
            let other = String(streamName.dropFirst(prefix.count))
            if !other.utf8.elementsEqual(name.utf8) && MailStore.folded(other) == folded {
                throw ImportError.accountNameLike(name: name, existing: other)
            }
        }
    }

    /// Whether anything is filed under account `name`: folders (its mail and sync state), drafts and outbox items,
    /// pending or failed actions.
    func holdsState(_ name: String, views: ViewStore) throws -> Bool {
        try !views.folders(account: name).isEmpty || !views.drafts(account: name).isEmpty
            || !views.pendingActions(account: name).isEmpty || !views.failedActions(account: name).isEmpty
    }

    /// The mailbox an account reads: its IMAP host and login, lowercased (a port or security changed on re-adding a name
    /// is the same mailbox).
    static func mailbox(of a: AccountAdded) -> [String] { [a.imapHost.lowercased(), a.username.lowercased()] }

    /// An account name as a user tells names apart: compatibility-composed (NFKC: full-width letters as ASCII), lowercased.
    static func folded(_ name: String) -> [UInt8] { Array(name.precomposedStringWithCompatibilityMapping.lowercased().utf8) }

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
            notes += MailStore.revoke(file, account: name, caFile: account.caFile, deadline: Deadline(secondsFromNow: limit))
        }
        if unlink(path) != 0 && errno != ENOENT {
            notes.append("could not delete the token file \(path): \(String(cString: strerror(errno))); delete it by hand")
        }
        // Its refresh lock too (empty; a refresh holding it finds the token file gone and writes nothing).
        unlink(OAuthRefreshLock.path(forTokenFile: path))
        return notes
    }

    /// Revokes the refresh token of `file` (best effort, by `deadline`); what went wrong, for the user.
    private static func revoke(_ file: OAuthTokenFile, account: String, caFile: String?, deadline: Deadline) -> [String] {
        guard file.config.revocationEndpoint != nil else {
            return ["the provider offers no token revocation: the sign-in stays valid there until it expires; "
                    + "remove mailstore's access in your account's security settings to end it now"]
        }
        do {
            let token = try file.currentRefreshToken(account: account)
            try OAuthClient(config: file.config, account: account, caFile: caFile).revoke(token, until: deadline)
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
