import EventModel
import Foundation
import SecureTransport
import SyncCore

extension MailStore {
    /// The registry id of the provider whose servers `host` belongs to (`gmail`, `outlook`, ...), else `custom`.
    public static func providerID(forHost host: String) -> String {
        ProviderRegistry.provider(forHost: host)?.id ?? ProviderRegistry.custom.id
    }

    /// How long `account login` waits for another process's token refresh to end before it writes the new tokens.
    static let loginLockWaitSeconds = 30.0

    /// Where the OAuth token file of account `name` lives: `STORE/secrets/NAME.oauth` (0600).
    public func oauthTokenPath(account name: String) -> String { directory.path + "/secrets/" + name + ".oauth" }

    /// Where the secret of `account` comes from in this store (nil when its stored form is not understood):
    /// an OAuth token file is this store's `secrets/NAME.oauth` whatever store path `AccountAdded` recorded
    /// (see ``CredentialSource/inStore(_:)``), so a restored or moved store uses its own tokens.
    public func credentialSource(of account: AccountAdded, smtp: Bool = false) -> CredentialSource? {
        let stored = smtp ? account.smtpCredentialSource ?? account.credentialSource : account.credentialSource
        return CredentialSource(stored: stored)?.inStore(directory.path)
    }

    /// `account` with its credential sources resolved in this store (``credentialSource(of:smtp:)``), for
    /// code that reads them from the settings.
    func withSourcesInStore(_ account: AccountAdded) -> AccountAdded {
        var a = account
        if let s = credentialSource(of: account) { a.credentialSource = s.description }
        if let stored = account.smtpCredentialSource, let s = CredentialSource(stored: stored)?.inStore(directory.path) {
            a.smtpCredentialSource = s.description
        }
        return a
    }

    /// Adds an account that signs in with OAuth 2.0: `signIn` runs first (the browser or device flow), the
    /// tokens go to the account's token file, and only then is `AccountAdded` committed (with `oauth:PATH`
    /// as its credential source and `oauth2` as its auth). A failed or killed sign-in adds nothing. With
    /// an id_token email source, the address in the id_token replaces `settings.email`.
    public func addOAuthAccount(_ settings: AccountSettings, config: OAuthConfig,
                                signIn: (OAuthClient) throws -> OAuthClient.Tokens) throws -> AccountAdded {
        // Everything but the token file is checked before anyone signs in.
        var probe = settings
        probe.auth = "oauth2"
        probe.credential = .environment("PATH")
        let checked = try probe.validated()
        if try latestViews().account(named: checked.name) != nil { throw AccountError.exists(checked.name) }
        // The name's and the mailbox's checks too, before the sign-in writes the token file: refused after it, the file
        // (on a file system that ignores case, another account's of a name differing only by case) had been deleted.
        try checkNameAndMailbox(checked)
        let path = oauthTokenPath(account: settings.name)
        let tokens = try signIn(OAuthClient(config: config, account: settings.name, caFile: checked.caFile))
        guard let refresh = tokens.refreshToken else {
            throw OAuthError.server("the provider gave no refresh token (is offline access allowed for this app?)")
        }
        var file = OAuthTokenFile(config: config, refreshToken: refresh)
        file.accessToken = tokens.accessToken
        file.accessTokenExpires = tokens.expires.timeIntervalSince1970
        try file.write(path)
        var final = probe
        final.credential = .oauth(path)
        if config.emailSource == .idToken, let email = tokens.email { final.email = email }
        do {
            return try addAccount(final)
        } catch let recorded as RecordedButNotFolded {
            // The account is recorded: its token file stays.
            throw recorded
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Signs account `name` in again (a revoked or expired refresh token): `signIn` runs with the settings in
    /// its token file (this store's `secrets/NAME.oauth`, see ``credentialSource(of:smtp:)``), whose tokens are
    /// then replaced at once (the old file stays until the new one is whole). The new tokens are written under the
    /// token file's refresh lock (``OAuthRefreshLock``), so a refresh another process is making ends before and
    /// one it makes after uses them; after `loginLockWaitSeconds` without it they are written all the same (a refresh
    /// ending later keeps the file of a refresh token it did not use).
    public func loginOAuthAccount(named name: String, signIn: (OAuthClient) throws -> OAuthClient.Tokens) throws {
        guard let account = try account(named: name) else { throw AccountError.notFound(name) }
        guard let source = credentialSource(of: account), case .oauth(let path) = source else {
            throw AccountError.invalid("\(name) does not sign in with OAuth (its secret comes from \(account.credentialSource))")
        }
        let config = try OAuthTokenFile.read(path).config
        let tokens = try signIn(OAuthClient(config: config, account: name, caFile: account.caFile))
        let lock = try? OAuthRefreshLock(tokenFile: path, account: name, until: Deadline(secondsFromNow: MailStore.loginLockWaitSeconds))
        defer { lock?.release() }
        var file = try OAuthTokenFile.read(path)
        if file.refreshTokenCommand == nil {
            guard let refresh = tokens.refreshToken else { throw OAuthError.server("the provider gave no refresh token") }
            file.refreshToken = refresh
        }
        file.accessToken = tokens.accessToken
        file.accessTokenExpires = tokens.expires.timeIntervalSince1970
        try file.write(path)
    }
}
