import Foundation

extension CredentialSource {
    /// Seconds before its expiry that an access token is replaced.
    static let refreshMarginSeconds = 30.0

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

    /// A current access token from the OAuth token file: the stored one while it has more than
    /// `refreshMarginSeconds` left (and `forceRefresh` is false), else a new one from the refresh token
    /// (3 retries with backoff), written back to the file. A revoked refresh token throws an error saying
    /// to run `mailstore account login NAME` again.
    public func oauthAccessToken(forceRefresh: Bool, caFile: String? = nil) throws(AccountError) -> String {
        guard case .oauth(let path) = self else { return try secret() }
        var file = try OAuthTokenFile.read(path)
        if !forceRefresh, let token = file.accessToken, let expires = file.accessTokenExpires,
           expires - Date().timeIntervalSince1970 > CredentialSource.refreshMarginSeconds {
            return token
        }
        let refreshToken = try file.currentRefreshToken(account: oauthAccount)
        let tokens: OAuthClient.Tokens
        do {
            tokens = try OAuthClient(config: file.config, account: oauthAccount, caFile: caFile).refresh(refreshToken)
        } catch {
            throw .credentialUnavailable(error.description)
        }
        file.accessToken = tokens.accessToken
        file.accessTokenExpires = tokens.expires.timeIntervalSince1970
        if let rotated = tokens.refreshToken, file.refreshTokenCommand == nil { file.refreshToken = rotated }
        try file.write(path)
        return tokens.accessToken
    }
}
