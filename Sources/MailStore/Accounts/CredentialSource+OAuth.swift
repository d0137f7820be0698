import Foundation

extension CredentialSource {
    /// Seconds before its expiry that an access token is replaced.
    static let refreshMarginSeconds = 30.0
    /// The longest a token refresh takes (every request, retry and wait in it) when the caller states no limit.
    public static let defaultRefreshSeconds = 10.0
    /// The latest a token refresh may end, bound by a caller around work that reads secrets without passing a
    /// limit (`MailStore.testAccount` binds its 10 s budget here); an explicit `timeoutSeconds` ends earlier if
    /// it says so.
    @TaskLocal public static var refreshDeadline: Date?

    /// Whether this source is an OAuth token file (the secret is an access token).
    public var isOAuth: Bool {
        if case .oauth = self { return true }
        return false
    }

    /// The account an OAuth token file belongs to: its name without `.oauth`.
    var oauthAccount: String {
        guard case .oauth(let path) = self else { return "" }
        let name = (path as NSString).lastPathComponent
        return name.hasSuffix(".oauth") ? String(name.dropLast(6)) : name
    }

    /// This source used with the store at `storePath`. Token files live in `STORE/secrets/NAME.oauth`, so an
    /// `oauth:` path relative to the store (`oauth:secrets/NAME.oauth`) is taken in it, and an absolute one
    /// ending in `/secrets/FILE.oauth` (what `AccountAdded` recorded: the store's path when the account was
    /// added, kept in the log for ever) names `STORE/secrets/FILE.oauth` of this store: a restored or moved store
    /// reads and writes its own token file, never the old store's. Any other source is returned as it is.
    public func inStore(_ storePath: String) -> CredentialSource {
        guard case .oauth(let path) = self else { return self }
        let store = storePath.count > 1 && storePath.hasSuffix("/") ? String(storePath.dropLast()) : storePath
        let file = (path as NSString).lastPathComponent
        // Relative: only its file name counts, in this store's secrets folder (`oauth:secrets/../../x.oauth` names
        // nothing outside it).
        guard path.hasPrefix("/") else {
            return file.hasSuffix(".oauth") && file.count > 6 ? .oauth(store + "/secrets/" + file) : self
        }
        guard file.hasSuffix(".oauth"), ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent == "secrets" else {
            return self
        }
        return .oauth(store + "/secrets/" + file)
    }

    /// Reads the secret now, an OAuth access token refreshed (when due) with `caFile` trusted and within
    /// `timeoutSeconds` (see ``oauthAccessToken(forceRefresh:caFile:timeoutSeconds:)``): for callers with a time
    /// limit of their own (sync's `--timeout`).
    public func secret(caFile: String?, timeoutSeconds: Double?) throws(AccountError) -> String {
        guard isOAuth else { return try secret() }
        try validate()
        return try oauthAccessToken(forceRefresh: false, caFile: caFile, timeoutSeconds: timeoutSeconds)
    }

    /// A current access token from the OAuth token file: the stored one while it has more than
    /// `refreshMarginSeconds` left (and `forceRefresh` is false), else a new one from the refresh token
    /// (3 retries with backoff), written back to the file. The refresh, retries and waits included, ends within
    /// `timeoutSeconds` (default ``defaultRefreshSeconds``; 0.5 to 3600) and by ``refreshDeadline`` when one is
    /// bound. A revoked refresh token throws an error saying to run `mailstore account login NAME` again.
    public func oauthAccessToken(forceRefresh: Bool, caFile: String? = nil, timeoutSeconds: Double? = nil) throws(AccountError) -> String {
        guard case .oauth(let path) = self else { return try secret() }
        var file = try OAuthTokenFile.read(path)
        if !forceRefresh, let token = file.accessToken, let expires = file.accessTokenExpires,
           expires - Date().timeIntervalSince1970 > CredentialSource.refreshMarginSeconds {
            return token
        }
        let refreshToken = try file.currentRefreshToken(account: oauthAccount)
        let asked = timeoutSeconds ?? CredentialSource.defaultRefreshSeconds
        let limit = asked.isFinite ? min(max(asked, 0.5), 3600) : CredentialSource.defaultRefreshSeconds
        var deadline = Date().addingTimeInterval(limit)
        if let bound = CredentialSource.refreshDeadline { deadline = min(deadline, bound) }
        let tokens: OAuthClient.Tokens
        do {
            tokens = try OAuthClient(config: file.config, account: oauthAccount, caFile: caFile).refresh(refreshToken, deadline: deadline)
        } catch {
            throw .oauth(error)
        }
        file.accessToken = tokens.accessToken
        file.accessTokenExpires = tokens.expires.timeIntervalSince1970
        if let rotated = tokens.refreshToken, file.refreshTokenCommand == nil { file.refreshToken = rotated }
        try file.write(path)
        return tokens.accessToken
    }
}
