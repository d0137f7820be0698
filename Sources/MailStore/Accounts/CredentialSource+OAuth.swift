import Foundation
import SecureTransport

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
    /// `timeoutSeconds` (see ``oauthAccessToken(forceRefresh:refused:caFile:timeoutSeconds:)``): for callers with a time
    /// limit of their own (sync's `--timeout`).
    public func secret(caFile: String?, timeoutSeconds: Double?) throws(AccountError) -> String {
        guard isOAuth else { return try secret() }
        try validate()
        return try oauthAccessToken(forceRefresh: false, caFile: caFile, timeoutSeconds: timeoutSeconds)
    }

    /// A current access token from the OAuth token file: the stored one while it has more than
    /// `refreshMarginSeconds` left (and `forceRefresh` is false), else a new one from the refresh token
    /// (3 retries with backoff), written back to the file. `refused` is the access token a server just refused
    /// (with `forceRefresh`; default: the one in the file when called): a different one another process put there since
    /// is used instead of refreshing again.
    ///
    /// One process at a time refreshes a token file (``OAuthRefreshLock``, taken within the refresh's time limit);
    /// the file is read again under the lock, and a token another process refreshed meanwhile is used as it is.
    /// A refresh refused with `invalid_grant` is tried once more when the file's refresh token changed meanwhile
    /// (replaced without the lock: an older build, another sign-in). The file written keeps the newest refresh
    /// token: the one the server rotated to, else the one read under the lock; a file whose refresh token changed
    /// again by the time of the write (or that is gone) is left as it is.
    ///
    /// Before the request goes out, room for the file's next version is set aside beside it (``OAuthTokenReservation``,
    /// the file's maximum, 256 KiB): when it cannot be (a full disk) nothing is sent and the refresh token stays valid
    /// (``AccountError/noRoomForToken(account:file:reason:diskFull:)``); the server's answer is written into that room.
    /// Tokens that still cannot be written are kept in memory for this process (``OAuthUnstoredTokens``), used and
    /// written when next asked for, with a warning (``setWarningHandler(_:)``).
    ///
    /// The refresh, the lock's wait, retries and waits included, ends within `timeoutSeconds` (default
    /// ``defaultRefreshSeconds``; 0.5 to 3600) and by ``refreshDeadline`` when one is bound. A revoked refresh
    /// token throws an error saying to run `mailstore account login NAME` again.
    public func oauthAccessToken(forceRefresh: Bool, refused: String? = nil, caFile: String? = nil,
                                 timeoutSeconds: Double? = nil) throws(AccountError) -> String {
        guard case .oauth(let path) = self else { return try secret() }
        let (seen, seenUnstored) = try OAuthUnstoredTokens.current(OAuthTokenFile.read(path), path: path)
        if !forceRefresh, !seenUnstored, let token = seen.usableAccessToken(margin: CredentialSource.refreshMarginSeconds) { return token }
        let asked = timeoutSeconds ?? CredentialSource.defaultRefreshSeconds
        let limit = asked.isFinite ? min(max(asked, 0.5), 3600) : CredentialSource.defaultRefreshSeconds
        // On the monotonic clock from here (a bound given as a wall time converted now): a step does not stretch it.
        var deadline = Deadline(secondsFromNow: limit)
        if let bound = CredentialSource.refreshDeadline { deadline = .earlier(deadline, Deadline(wall: bound)) }
        // The access token this refresh replaces (none when it is only due).
        let stale = forceRefresh ? refused ?? seen.accessToken : nil
        let lock = try OAuthRefreshLock(tokenFile: path, account: oauthAccount, until: deadline)
        defer { lock.release() }
        // Read again under the lock: the state before it may be another process's refresh old.
        var onDisk = try OAuthTokenFile.read(path)
        var (file, unstored) = OAuthUnstoredTokens.current(onDisk, path: path)
        if let token = file.usableAccessToken(margin: CredentialSource.refreshMarginSeconds), !forceRefresh || token != stale {
            // Tokens kept in memory: written now if they can be (else kept, as they are).
            if unstored, (try? OAuthTokenReservation(tokenFile: path, account: oauthAccount).store(file)) != nil {
                OAuthUnstoredTokens.forget(path)
            }
            return token
        }
        // Room for the tokens before the request: a rotating server spends the refresh token when it answers.
        let room = try OAuthTokenReservation(tokenFile: path, account: oauthAccount)
        defer { room.cancel() }
        var used = try file.currentRefreshToken(account: oauthAccount)
        let tokens: OAuthClient.Tokens
        do throws(OAuthError) {
            tokens = try OAuthClient(config: file.config, account: oauthAccount, caFile: caFile).refresh(used, until: deadline)
        } catch {
            guard case .signInAgain = error else { throw .oauth(error) }
            // Refused: when someone replaced the refresh token without the lock meanwhile, it is the current one.
            let again = try OAuthTokenFile.read(path)
            guard let newer = try? again.currentRefreshToken(account: oauthAccount), newer != used else { throw .oauth(error) }
            (file, used, onDisk, unstored) = (again, newer, again, false)
            do throws(OAuthError) {
                tokens = try OAuthClient(config: file.config, account: oauthAccount, caFile: caFile).refresh(used, until: deadline)
            } catch {
                throw .oauth(error)
            }
        }
        file.accessToken = tokens.accessToken
        file.accessTokenExpires = tokens.expires.timeIntervalSince1970
        let rotated = tokens.refreshToken.map { $0 != used } ?? false
        if let new = tokens.refreshToken, file.refreshTokenCommand == nil { file.refreshToken = new }
        // A refresh token replaced meanwhile without the lock is a newer sign-in than the one refreshed here, and a
        // file deleted meanwhile an account removed: either is left as it is.
        if file.refreshTokenCommand == nil, (try? OAuthTokenFile.read(path))?.refreshToken != onDisk.refreshToken {
            OAuthUnstoredTokens.forget(path)
            return tokens.accessToken
        }
        do throws(AccountError) {
            try room.store(file)
            OAuthUnstoredTokens.forget(path)
        } catch {
            OAuthUnstoredTokens.keep(file, path: path, onDisk: onDisk.refreshToken)
            if rotated || unstored, file.refreshTokenCommand == nil, case .secretNotWritten(let at, let reason, let diskFull) = error {
                let warn = OAuthUnstoredTokens.warn.withLock { $0 }
                warn("the OAuth server replaced the refresh token of \(oauthAccount), but writing the new one to \(at) failed "
                     + "(\(reason)\(diskFull ? ": the disk is full" : "")); it is kept in memory and used while this command runs, and "
                     + "written as soon as it can be: \(diskFull ? "free space now" : "mend that now"); should the command end first, the "
                     + "sign-in is lost (the file holds the replaced token): run `mailstore account login \(oauthAccount)` then")
            }
        }
        return tokens.accessToken
    }

    /// Where warnings of the token handling go (a rotated refresh token that could not be written, kept in memory):
    /// standard error, `mailstore: warning: ...`, until this is called (the CLI passes its own, sanitised writer).
    public static func setWarningHandler(_ handler: @escaping @Sendable (String) -> Void) {
        OAuthUnstoredTokens.warn.withLock { $0 = handler }
    }
}
