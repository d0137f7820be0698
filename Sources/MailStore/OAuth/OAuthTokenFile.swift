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

    /// Files larger than this are neither read nor written (256 KiB); a refresh sets this much room aside before it
    /// goes out (``OAuthTokenReservation``).
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

    /// Writes the file at `path` atomically with mode 0600 (the folder made 0700 when missing); throws
    /// ``AccountError/secretNotWritten(file:reason:diskFull:)`` saying what failed (the old file left as it was).
    /// A refresh writes through an ``OAuthTokenReservation`` made before it instead.
    public func write(_ path: String) throws(AccountError) {
        let folder = (path as NSString).deletingLastPathComponent
        let tmp = path + ".tmp-\(getpid())"
        // `code` read before `what` is made (making a string may change errno).
        func failed(_ what: String, _ code: Int32) -> AccountError {
            unlink(tmp)
            return .secretNotWritten(file: path, reason: "\(what): \(String(cString: strerror(code)))", diskFull: code == ENOSPC || code == EDQUOT)
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .secretNotWritten(file: path, reason: "cannot make \(folder): \(error)", diskFull: false)
        }
        let data: Data
        do { data = try encoded() } catch { throw .secretNotWritten(file: path, reason: "\(error)", diskFull: false) }
        guard data.count <= OAuthTokenFile.maxBytes else { throw OAuthTokenFile.tooLarge(data.count, path) }
        let fd = StoreDirectory.createPrivateTemporary(tmp)
        guard fd >= 0 else {
            let code = errno
            throw failed("cannot create \(tmp)", code)
        }
        defer { close(fd) }
        guard OAuthTokenFile.writeAll(fd, data), fchmod(fd, 0o600) == 0, fsync(fd) == 0 else {
            let code = errno
            throw failed("cannot write \(tmp)", code)
        }
        guard rename(tmp, path) == 0 else {
            let code = errno
            throw failed("cannot rename \(tmp)", code)
        }
    }

    /// The error of a file of `bytes` bytes, over ``maxBytes`` (it could not be read back), for `path`.
    static func tooLarge(_ bytes: Int, _ path: String) -> AccountError {
        .secretNotWritten(file: path, reason: "the tokens take \(bytes) bytes, over the file's \(maxBytes / 1024) KiB", diskFull: false)
    }

    /// The file's bytes (JSON, keys sorted).
    func encoded() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return try e.encode(self)
    }

    /// Writes all of `data` at the start of `fd` (short writes and `EINTR` gone on with); false with `errno` set when a
    /// write fails.
    static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(done))
                if n > 0 {
                    done += n
                } else if n == 0 {
                    errno = EIO
                    return false
                } else if errno != EINTR {
                    return false
                }
            }
            return true
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
