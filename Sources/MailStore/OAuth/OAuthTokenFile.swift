import EventLog
import Foundation

/// An account's OAuth state in one file, `STORE/secrets/NAME.oauth` (mode 0600, JSON): the settings
/// (``OAuthConfig``), the refresh token (unless a `--token-command` keeps it in a keyring), and the current
/// access token with its expiry. Only the file's path enters the log (`AccountAdded.credentialSource`
/// `oauth:PATH`). Written whole to a temporary file, synced and renamed, so a kill leaves the old file or
/// the new one, never half of one.
public struct OAuthTokenFile: Sendable, Equatable, Codable {
    public var config: OAuthConfig
    /// The refresh token; nil when `refreshTokenCommand` holds it.
    public var refreshToken: String?
    /// A shell command printing the refresh token (a keyring), instead of `refreshToken`.
    public var refreshTokenCommand: String?
    public var accessToken: String?
    /// When the access token expires (seconds since 1970).
    public var accessTokenExpires: Double?

    public init(config: OAuthConfig, refreshToken: String? = nil, refreshTokenCommand: String? = nil) {
        self.config = config
        self.refreshToken = refreshToken
        self.refreshTokenCommand = refreshTokenCommand
    }

    /// Files larger than this are refused.
    static let maxBytes = 256 * 1024

    /// Reads the file at `path` (it must be a regular file of mode 0600 or stricter).
    public static func read(_ path: String) throws(AccountError) -> OAuthTokenFile {
        try CredentialSource.file(path).validate()
        // Read with its bound, not whole and then measured.
        guard let bytes = try? BoundedFile.read(path, maxBytes: maxBytes) else {
            throw .credentialUnavailable("cannot read \(path) (a regular file of at most \(maxBytes / 1024) KiB)")
        }
        do { return try JSONDecoder().decode(OAuthTokenFile.self, from: Data(bytes)) } catch {
            throw .credentialUnavailable("\(path) is not an OAuth token file: \(error)")
        }
    }

    /// Writes the file at `path` atomically with mode 0600 (the folder made 0700 when missing).
    public func write(_ path: String) throws(AccountError) {
        let folder = (path as NSString).deletingLastPathComponent
        let tmp = path + ".tmp-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            let data = try e.encode(self)
            let fd = StoreDirectory.createPrivateTemporary(tmp)
            guard fd >= 0 else { throw AccountError.credentialUnavailable("cannot create \(tmp): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            let written = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            guard written == data.count, fchmod(fd, 0o600) == 0, fsync(fd) == 0 else {
                unlink(tmp)
                throw AccountError.credentialUnavailable("cannot write \(tmp): \(String(cString: strerror(errno)))")
            }
            guard rename(tmp, path) == 0 else {
                unlink(tmp)
                throw AccountError.credentialUnavailable("cannot rename \(tmp): \(String(cString: strerror(errno)))")
            }
        } catch let error as AccountError {
            throw error
        } catch {
            unlink(tmp)
            throw .credentialUnavailable("cannot write \(path): \(error)")
        }
    }

    /// The access token while it has more than `margin` seconds left, else nil.
    func usableAccessToken(margin: Double) -> String? {
        guard let accessToken, let accessTokenExpires, accessTokenExpires - Date().timeIntervalSince1970 > margin else { return nil }
        return accessToken
    }

    /// The refresh token, from the file or its command.
    func currentRefreshToken(account: String) throws(AccountError) -> String {
        if let refreshTokenCommand { return try CredentialSource.command(refreshTokenCommand).secret() }
        guard let refreshToken, !refreshToken.isEmpty else {
            throw .credentialUnavailable(OAuthError.notSignedIn(account).description)
        }
        return refreshToken
    }
}
